"use client";

import { CaseRouting } from "@/components/cases/routing-editor";

export function CaseRoutingPageClient() {
  return <CaseRouting />;
}

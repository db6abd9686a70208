"use client";

import { CaseRouting } from "@/components/cases/routing-editor";
import { TeamTemplates } from "@/components/cases/team-templates";

export function CaseRoutingPageClient() {
  return (
    <div className="space-y-8">
      <CaseRouting />
      <TeamTemplates />
    </div>
  );
}

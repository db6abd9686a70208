"use client";

import { CpfLookup } from "@/components/lookups/cpf-lookup";

export function LookupsPageClient() {
  return <CpfLookup />;
}

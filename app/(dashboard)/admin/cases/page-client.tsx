"use client";

import { CaseRouting } from "@/components/cases/routing-editor";
import { TeamTemplates } from "@/components/cases/team-templates";
import { ScreeningSettings } from "@/components/monitoring/screening-settings";

export function CaseRoutingPageClient() {
  return (
    <div className="space-y-8">
      <CaseRouting />
      <TeamTemplates />
      <ScreeningSettings />
    </div>
  );
}

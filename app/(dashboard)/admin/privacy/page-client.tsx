"use client";

import { useTranslations } from "next-intl";

import { ErasurePanel } from "@/components/privacy/erasure-panel";
import { PrivacyRequestsPanel } from "@/components/privacy/request-queue";
import { RetentionTable } from "@/components/privacy/retention-table";
import { TitularReportSection } from "@/components/privacy/titular-report-section";
import { TitledSection } from "@/components/ui/titled-section";

export function PrivacyPageClient({ mayErase, mayRequest = false }: { mayErase: boolean; mayRequest?: boolean }) {
  const t = useTranslations();
  return (
    <div className="space-y-10">
      {mayRequest ? <PrivacyRequestsPanel mayErase={mayErase} /> : null}
      <TitularReportSection />
      <TitledSection id="retention-heading" title={t("privacy.retention.heading")} lead={t("privacy.retention.lead")} className="space-y-3">
        <RetentionTable />
      </TitledSection>
      {mayErase ? <ErasurePanel /> : null}
    </div>
  );
}

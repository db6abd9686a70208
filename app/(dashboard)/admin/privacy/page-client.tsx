"use client";

import { useTranslations } from "next-intl";

import { ErasurePanel } from "@/components/privacy/erasure-panel";
import { RetentionTable } from "@/components/privacy/retention-table";
import { TitularReportSection } from "@/components/privacy/titular-report-section";

export function PrivacyPageClient({ mayErase }: { mayErase: boolean }) {
  const t = useTranslations();
  return (
    <div className="space-y-10">
      <TitularReportSection />
      <section aria-labelledby="retention-heading" className="space-y-3">
        <div className="space-y-1">
          <h2 id="retention-heading" className="text-lg font-semibold text-slate-900">
            {t("privacy.retention.heading")}
          </h2>
          <p className="text-sm text-slate-700">{t("privacy.retention.lead")}</p>
        </div>
        <RetentionTable />
      </section>
      {mayErase ? <ErasurePanel /> : null}
    </div>
  );
}

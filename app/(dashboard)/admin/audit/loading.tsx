import { getTranslations } from "next-intl/server";

import { AuditEventTableSkeleton } from "@/components/audit/audit-event-table";
import { ClientMessages } from "@/i18n/client-messages";

export default async function Loading() {
  const t = await getTranslations("audit");
  return (
    <section className="space-y-4" aria-busy="true">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p role="status" aria-live="polite" className="text-sm text-slate-600">
        {t("list.updating")}
      </p>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <ClientMessages namespaces={["audit.table"]}>
          <AuditEventTableSkeleton rows={10} caption={t("table.caption")} />
        </ClientMessages>
      </div>
    </section>
  );
}

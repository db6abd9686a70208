// The list's loading outline. In the (list) route group so that it is the list's alone: at the
// verifications segment it also wrapped the detail pages, whose first load then showed the list's outline,
// then the detail's, then the detail (each reveal of a streamed boundary waits 300 ms after the last).
import { getTranslations } from "next-intl/server";

import { VerificationTableSkeleton } from "@/components/verifications/verification-table";
import { ClientMessages } from "@/i18n/client-messages";

export default async function Loading() {
  const t = await getTranslations("verifications.list");
  return (
    <section className="space-y-4" aria-busy="true">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p role="status" aria-live="polite" className="text-sm text-slate-600">
        {t("updating")}
      </p>
      <ClientMessages namespaces={["verifications.status", "verifications.steps", "verifications.table"]}>
        <VerificationTableSkeleton rows={10} caption={t("caption")} />
      </ClientMessages>
    </section>
  );
}

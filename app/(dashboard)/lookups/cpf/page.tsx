import { getTranslations } from "next-intl/server";

import { PageHeader } from "@/components/layout/page-header";
import { config } from "@/lib/config";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";

import { LookupsPageClient } from "./page-client";

export const generateMetadata = pageTitle("lookups");

// /lookups/cpf – manual CPF lookups (analysts). Nothing to prefetch: a lookup starts from the form, and keeps its
// answer in the form, not in a client data cache (lib/shared/api-client/use-request.ts).
export default async function Page() {
  await requireConnectionPageUser("lookups.run");
  const t = await getTranslations("lookups");
  const { perMinute, perDay } = config().lookupLimits;
  return (
    <div className="space-y-6">
      <PageHeader title={t("title")} intro={t("intro")}>
        <p id="lookup-limits" className="text-sm text-slate-600">
          {t("limits", { perMinute, perDay })}
        </p>
      </PageHeader>
      <ClientMessages namespaces={["lookups", "errors", "common.notInformed"]}>
        <LookupsPageClient />
      </ClientMessages>
    </div>
  );
}

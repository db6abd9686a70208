import { getTranslations } from "next-intl/server";

import { PageHeader } from "@/components/layout/page-header";
import { config } from "@/lib/config";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";

import { KycPageClient } from "./page-client";

export const generateMetadata = pageTitle("kyc");

// /kyc – start a KYC session and check a phone by SMS (analysts). Both start from a form: nothing to prefetch, and
// no client data cache (each form keeps its answer: lib/shared/api-client/use-request.ts).
export default async function Page() {
  await requireConnectionPageUser("kyc.start");
  const t = await getTranslations("kyc");
  return (
    <div className="space-y-6">
      <PageHeader title={t("title")} intro={t("intro")} />
      <ClientMessages namespaces={["kyc", "lookups", "errors", "common.notInformed", "common.copy"]}>
        <KycPageClient smsCooldownSeconds={config().smsResendCooldownSeconds} />
      </ClientMessages>
    </div>
  );
}

import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { ClientMessages } from "@/lib/i18n/client-messages";
import { requirePageUser } from "@/lib/auth/server/require-role";
import { config } from "@/lib/config";

import { KycPageClient } from "./page-client";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("kyc");
  return { title: t("title") };
}

// /kyc – start a KYC session and check a phone by SMS (analysts). Both start from a form: nothing to prefetch.
export default async function Page() {
  await requirePageUser("kyc.start");
  const t = await getTranslations("kyc");
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">{t("title")}</h1>
        <p className="text-sm text-slate-700">{t("intro")}</p>
      </header>
      <ClientMessages namespaces={["kyc", "lookups", "errors", "common.notInformed", "common.copy"]}>
        <KycPageClient smsCooldownSeconds={config().smsResendCooldownSeconds} />
      </ClientMessages>
    </div>
  );
}

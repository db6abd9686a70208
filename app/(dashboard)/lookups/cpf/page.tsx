import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { ClientMessages } from "@/lib/i18n/client-messages";
import { requirePageUser } from "@/lib/auth/server/require-role";
import { config } from "@/lib/config";

import { LookupsPageClient } from "./page-client";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("lookups");
  return { title: t("title") };
}

// /lookups/cpf – manual CPF lookups (analysts). Nothing to prefetch: a lookup starts from the form.
export default async function Page() {
  await requirePageUser("lookups.run");
  const t = await getTranslations("lookups");
  const { perMinute, perDay } = config().lookupLimits;
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">{t("title")}</h1>
        <p className="text-sm text-slate-700">{t("intro")}</p>
        <p id="lookup-limits" className="text-sm text-slate-600">
          {t("limits", { perMinute, perDay })}
        </p>
      </header>
      <ClientMessages namespaces={["lookups", "errors", "common.notInformed"]}>
        <LookupsPageClient />
      </ClientMessages>
    </div>
  );
}

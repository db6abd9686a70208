import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { ClientMessages } from "@/lib/i18n/client-messages";
import { hasPermission, requirePageUser } from "@/lib/auth/server/require-role";
import { getDb } from "@/lib/db/client";
import { privacyKeys } from "@/lib/privacy/hooks";
import { retentionReport } from "@/lib/privacy/server/report";

import { PrivacyPageClient } from "./page-client";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("privacy");
  return { title: t("title") };
}

// /admin/privacy – the titular report (LGPD art. 18 and 19), the retention policies, and erasure requests for
// members who hold privacy.erase. The
// retention policies are read here (the same function as GET /api/privacy/retention; no personal data); a
// report starts from the form, its CPF in a POST body.
export default async function PrivacyPage() {
  const user = await requirePageUser("privacy.report");
  const t = await getTranslations("privacy");
  const queryClient = new QueryClient();
  await queryClient.prefetchQuery({ queryKey: privacyKeys.retention(), queryFn: async () => retentionReport(await getDb()) });
  return (
    <div className="space-y-8">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">{t("title")}</h1>
        <p className="text-sm text-slate-700">{t("intro")}</p>
      </header>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <ClientMessages namespaces={["privacy", "erasure", "errors"]}>
          <PrivacyPageClient mayErase={hasPermission(user, "privacy.erase")} />
        </ClientMessages>
      </HydrationBoundary>
    </div>
  );
}

import { QueryClient } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";

import { HydratedClient } from "@/components/layout/hydrated-client";
import { PageHeader } from "@/components/layout/page-header";
import { hasPermission } from "@/lib/auth/server/require-role";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { pageTitle } from "@/lib/i18n/page-title";
import { privacyKeys, requestKeys } from "@/lib/privacy/hooks";
import { retentionReport } from "@/lib/privacy/server/report";
import { listRequests } from "@/lib/privacy/server/requests";

import { PrivacyPageClient } from "./page-client";

export const generateMetadata = pageTitle("privacy");

// /admin/privacy – the titular requests' queue for members who hold privacy.requests (prefetched: late first), the
// titular report (LGPD art. 18 and 19), the retention policies, and erasure requests for members who hold
// privacy.erase. The
// retention policies are read here (the same function as GET /api/privacy/retention; no personal data); a
// report starts from the form, its CPF in a POST body.
export default async function PrivacyPage() {
  const user = await requireConnectionPageUser("privacy.report");
  const t = await getTranslations("privacy");
  const queryClient = new QueryClient();
  await queryClient.prefetchQuery({ queryKey: privacyKeys.retention(), queryFn: async () => retentionReport(await getDb()) });
  const mayRequest = hasPermission(user, "privacy.requests");
  if (mayRequest) {
    const viewer = { id: user.id, unmasked: hasPermission(user, "personal_data.unmasked") };
    await queryClient.prefetchQuery({ queryKey: requestKeys.list(), queryFn: async () => listRequests(await getDb(), viewer) });
  }
  return (
    <div className="space-y-8">
      <PageHeader title={t("title")} intro={t("intro")} />
      <HydratedClient queryClient={queryClient} namespaces={["privacy", "erasure", "errors"]}>
        <PrivacyPageClient mayErase={hasPermission(user, "privacy.erase")} mayRequest={mayRequest} />
      </HydratedClient>
    </div>
  );
}

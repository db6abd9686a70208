import { QueryClient } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";

import { CoafReports } from "@/components/cases/coaf-reports";
import { HydratedClient } from "@/components/layout/hydrated-client";
import { PageHeader } from "@/components/layout/page-header";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { pageTitle } from "@/lib/i18n/page-title";

export const generateMetadata = pageTitle("coaf");

// /compliance/coaf – suspicious-activity reports to COAF (coaf.report only; anyone else gets the not-allowed page):
// drafts first with their deadline, each row's dossier (JSON, PDF) and, for a draft, recording its SISCOAF protocol.
// The list is read in the browser (GET /api/suspicious-activity).
export default async function CoafReportsPage() {
  await requireConnectionPageUser("coaf.report");
  const t = await getTranslations("coaf");
  return (
    <div className="space-y-6">
      <PageHeader title={t("title")} />
      <HydratedClient queryClient={new QueryClient()} namespaces={["coaf", "errors"]}>
        <CoafReports />
      </HydratedClient>
    </div>
  );
}

import { QueryClient } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";

import { CoafReports } from "@/components/cases/coaf-reports";
import { HydratedClient } from "@/components/layout/hydrated-client";
import { PageHeader } from "@/components/layout/page-header";
import { coafKeys } from "@/lib/cases/coaf-hooks";
import { listReports } from "@/lib/cases/server/suspicious-activity";
import { withConnection } from "@/lib/connections/server/bind";
import { pageConnection, requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { pageTitle } from "@/lib/i18n/page-title";

export const generateMetadata = pageTitle("coaf");

// /compliance/coaf – suspicious-activity reports to COAF (coaf.report only; anyone else gets the not-allowed page):
// drafts first with their deadline, each row's dossier (JSON, PDF) and, for a draft, recording its SISCOAF protocol.
// The first view is read here (the same function as GET /api/suspicious-activity, under the page's connection) and
// hydrated: the list is in the page's HTML, and a protocol recorded reads it again through the route handler.
export default async function CoafReportsPage() {
  await requireConnectionPageUser("coaf.report");
  const t = await getTranslations("coaf");
  const queryClient = new QueryClient();
  const db = await getDb();
  try {
    queryClient.setQueryData(coafKeys.list(), await withConnection(await pageConnection(), () => listReports(db)));
  } catch {
    // The client asks GET /api/suspicious-activity and shows that answer's own state.
  }
  return (
    <div className="space-y-6">
      <PageHeader title={t("title")} />
      <HydratedClient queryClient={queryClient} namespaces={["coaf", "errors"]}>
        <CoafReports />
      </HydratedClient>
    </div>
  );
}

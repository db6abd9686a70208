import { getTranslations } from "next-intl/server";

import { CoafReports } from "@/components/cases/coaf-reports";
import { PageHeader } from "@/components/layout/page-header";
import { listReports } from "@/lib/cases/server/suspicious-activity";
import { withConnection } from "@/lib/connections/server/bind";
import { pageConnection, requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";

export const generateMetadata = pageTitle("coaf");

// /compliance/coaf – suspicious-activity reports to COAF (coaf.report only; anyone else gets the not-allowed page):
// drafts first with their deadline, each row's dossier (JSON, PDF) and, for a draft, recording its SISCOAF protocol.
// Drawn here on the server (the same function as GET /api/suspicious-activity, under the page's connection); a
// protocol recorded has the page drawn again. A failed read is the segment's error view, with its retry.
export default async function CoafReportsPage() {
  await requireConnectionPageUser("coaf.report");
  const [t, db, connection] = await Promise.all([getTranslations("coaf"), getDb(), pageConnection()]);
  const data = await withConnection(connection, () => listReports(db));
  return (
    <div className="space-y-6">
      <PageHeader title={t("title")} />
      <ClientMessages namespaces={["coaf.filed", "coaf.page", "errors"]}>
        <CoafReports data={data} />
      </ClientMessages>
    </div>
  );
}

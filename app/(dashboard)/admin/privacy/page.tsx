import { getTranslations } from "next-intl/server";

import { PageHeader } from "@/components/layout/page-header";
import { ErasurePanel } from "@/components/privacy/erasure-panel";
import { PrivacyRequestsPanel } from "@/components/privacy/request-queue";
import { RetentionTable } from "@/components/privacy/retention-table";
import { TitularReportSection } from "@/components/privacy/titular-report-section";
import { TitledSection } from "@/components/ui/titled-section";
import { hasPermission } from "@/lib/auth/server/require-role";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";
import { listErasures } from "@/lib/privacy/server/erasure";
import { retentionReport } from "@/lib/privacy/server/report";
import { listRequests } from "@/lib/privacy/server/requests";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("privacy");

// /admin/privacy – the titular requests' queue for members who hold privacy.requests (late first), the titular report
// (LGPD art. 18 and 19), the retention policies, and erasure requests for members who hold privacy.erase. The lists are
// drawn here, through the same functions as their GET routes (masked: never a CPF); what needs the browser (the forms,
// the close and decide buttons) are islands whose requests have the page drawn again. A report starts from the form,
// its CPF in a POST body.
export default async function PrivacyPage() {
  const user = await requireConnectionPageUser("privacy.report");
  const mayRequest = hasPermission(user, "privacy.requests");
  const mayErase = hasPermission(user, "privacy.erase");
  const db = await getDb();
  const viewer = { id: user.id, unmasked: hasPermission(user, "personal_data.unmasked") };
  const [t, retention, requests, erasures] = await Promise.all([
    getTranslations("privacy"),
    retentionReport(db),
    mayRequest ? listRequests(db, viewer) : null,
    mayErase ? listErasures(db, user.id) : null,
  ]);
  return (
    <div className="space-y-8">
      <PageHeader title={t("title")} intro={t("intro")} />
      <ClientMessages namespaces={["privacy", "erasure", "errors"]}>
        <div className="space-y-10">
          {requests ? <PrivacyRequestsPanel data={requests} mayErase={mayErase} /> : null}
          <TitularReportSection />
          <TitledSection id="retention-heading" title={t("retention.heading")} lead={t("retention.lead")} className="space-y-3">
            <RetentionTable data={retention} />
          </TitledSection>
          {erasures ? <ErasurePanel data={erasures} /> : null}
        </div>
      </ClientMessages>
    </div>
  );
}

import { getTranslations } from "next-intl/server";
import { headers } from "next/headers";

import { CreateKeyDialog } from "@/components/integrations/create-key-dialog";
import { IntegrationKeys } from "@/components/integrations/integration-keys";
import { UpstreamCallsSection } from "@/components/integrations/upstream-calls-section";
import { TitleWithAction } from "@/components/ui/title-with-action";
import { DeliveryHealthSection } from "@/components/webhooks/delivery-health-section";
import { config } from "@/lib/config";
import { pageConnection, requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";
import { integrationListFor } from "@/lib/integrations/server/integrations-view";
import { upstreamCallsReport } from "@/lib/integrations/server/upstream-calls";
import { deliveryHealth } from "@/lib/webhooks/server/health";

export const generateMetadata = pageTitle("integrations");

// /admin/integrations – integration keys (admins only), drawn on the server: the registry and the keys this admin
// may still reveal; the create dialog, the reveal and the retire buttons are client islands whose requests draw the
// page again (components/ui/use-refreshing-request.ts). Below them, how the service's event deliveries fare, and what the service's
// calls cost this week (the key's quota).
export default async function Page() {
  const user = await requireConnectionPageUser("integrations.manage");
  const cookieHeader = (await headers()).get("cookie");
  const [db, connection, t] = await Promise.all([getDb(), pageConnection(), getTranslations("integrations")]);
  const [list, calls, deliveries] = await Promise.all([
    integrationListFor(user.id, cookieHeader),
    upstreamCallsReport(db, connection.id),
    deliveryHealth(db, connection.id),
  ]);
  return (
    <div className="space-y-8">
      <ClientMessages namespaces={["integrations", "errors", "lookups.apiErrors", "lookups.results", "common.notInformed", "common.copy"]}>
        <div className="space-y-6">
          <TitleWithAction title={t("title")} intro={t("intro")} action={<CreateKeyDialog />} />
          <IntegrationKeys list={list} />
        </div>
      </ClientMessages>
      <DeliveryHealthSection health={deliveries} timeZone={config().displayTimeZone} />
      <UpstreamCallsSection report={calls} />
    </div>
  );
}

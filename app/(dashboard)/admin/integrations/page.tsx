import { QueryClient } from "@tanstack/react-query";
import { headers } from "next/headers";

import { UpstreamCallsSection } from "@/components/integrations/upstream-calls-section";
import { HydratedClient } from "@/components/layout/hydrated-client";
import { DeliveryHealthSection } from "@/components/webhooks/delivery-health-section";
import { config } from "@/lib/config";
import { pageConnection, requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { pageTitle } from "@/lib/i18n/page-title";
import { integrationKeys } from "@/lib/integrations/hooks";
import { integrationListFor } from "@/lib/integrations/server/integrations-view";
import { upstreamCallsReport } from "@/lib/integrations/server/upstream-calls";
import { deliveryHealth } from "@/lib/webhooks/server/health";

import { IntegrationsPageClient } from "./page-client";

export const generateMetadata = pageTitle("integrations");

// /admin/integrations – integration keys (admins only): the registry and revealable keys are prefetched here; below
// them, how the service's event deliveries fare, and what the service's calls cost this week (the key's quota).
export default async function Page() {
  const user = await requireConnectionPageUser("integrations.manage");
  const queryClient = new QueryClient();
  const cookieHeader = (await headers()).get("cookie");
  const [db, connection] = await Promise.all([getDb(), pageConnection()]);
  const [, calls, deliveries] = await Promise.all([
    queryClient.prefetchQuery({ queryKey: integrationKeys.list(), queryFn: () => integrationListFor(user.id, cookieHeader) }),
    upstreamCallsReport(db, connection.id),
    deliveryHealth(db, connection.id),
  ]);
  return (
    <div className="space-y-8">
      <HydratedClient
        queryClient={queryClient}
        namespaces={["integrations", "errors", "lookups.apiErrors", "lookups.results", "common.notInformed", "common.copy"]}
      >
        <IntegrationsPageClient />
      </HydratedClient>
      <DeliveryHealthSection health={deliveries} timeZone={config().displayTimeZone} />
      <UpstreamCallsSection report={calls} />
    </div>
  );
}

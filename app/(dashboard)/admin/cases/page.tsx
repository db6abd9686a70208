import { QueryClient } from "@tanstack/react-query";

import { HydratedClient } from "@/components/layout/hydrated-client";
import { routingKeys } from "@/lib/cases/routing-hooks";
import { readTakeSettings } from "@/lib/cases/server/case-settings";
import { readRouting } from "@/lib/cases/server/routing";
import { config } from "@/lib/config";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { pageTitle } from "@/lib/i18n/page-title";
import { monitoringKeys } from "@/lib/monitoring/hooks";
import { readBudget } from "@/lib/monitoring/server/settings";

import { CaseRoutingPageClient } from "./page-client";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("cases.routing");

// /admin/cases (cases.assign): the team's queues, routing rules and auto-assignment, read here through the
// same function as GET /api/cases/routing, then hydrated; saving goes through PUT /api/cases/routing. How a
// member takes a case (GET, PUT /api/cases/settings) sits below, saved on its own, and the ongoing screening's daily
// budget (GET, PUT /api/monitoring/settings) with a run now (POST /api/monitoring/run).
export default async function CaseRoutingPage() {
  await requireConnectionPageUser("cases.assign");
  const queryClient = new QueryClient();
  const db = await getDb();
  await queryClient.prefetchQuery({ queryKey: routingKeys.routing(), queryFn: async () => readRouting(db) });
  await queryClient.prefetchQuery({ queryKey: routingKeys.settings(), queryFn: async () => readTakeSettings(db) });
  await queryClient.prefetchQuery({ queryKey: monitoringKeys.budget(), queryFn: async () => readBudget(db, config().displayTimeZone) });
  return (
    <HydratedClient
      queryClient={queryClient}
      namespaces={[
        "cases.routing",
        "cases.flags",
        "cases.templates",
        "cases.recommendation",
        "common.retry",
        "common.loading",
        "monitoring",
      ]}
    >
      <CaseRoutingPageClient />
    </HydratedClient>
  );
}

import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { ClientMessages } from "@/lib/i18n/client-messages";
import { requirePageUser } from "@/lib/auth/server/require-role";
import { routingKeys } from "@/lib/cases/routing-hooks";
import { readRouting } from "@/lib/cases/server/routing";
import { getDb } from "@/lib/db/client";

import { CaseRoutingPageClient } from "./page-client";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cases.routing");
  return { title: t("title") };
}

// /admin/cases (cases.assign): the team's queues, routing rules and auto-assignment, read here through the
// same function as GET /api/cases/routing, then hydrated; saving goes through PUT /api/cases/routing.
export default async function CaseRoutingPage() {
  await requirePageUser("cases.assign");
  const queryClient = new QueryClient();
  await queryClient.prefetchQuery({ queryKey: routingKeys.routing(), queryFn: async () => readRouting(await getDb()) });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ClientMessages namespaces={["cases.routing", "cases.flags", "common.retry", "common.loading"]}>
        <CaseRoutingPageClient />
      </ClientMessages>
    </HydrationBoundary>
  );
}

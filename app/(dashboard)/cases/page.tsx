import { QueryClient } from "@tanstack/react-query";
import { headers } from "next/headers";

import { HydratedClient } from "@/components/layout/hydrated-client";
import { audited, requestContext } from "@/lib/audit-trail/server";
import { caseKeys, type QueueParams } from "@/lib/cases/hooks";
import { listQueue } from "@/lib/cases/server/queue";
import { queueQuerySchema } from "@/lib/cases/validation";
import { pageConnection, requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import type { PageSearchParams } from "@/lib/shared/page-search-params";

import { CasesPageClient } from "./page-client";

// /cases: the review queue. The first view is read here (same function as GET /api/cases) and hydrated;
// tab, sort and filter changes go through the route handler. Unknown parameters fall back to the open queue.
export default async function CasesPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const user = await requireConnectionPageUser("cases.read");
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([key, value]) => [key, [value ?? []].flat()[0]]));
  const parsed = queueQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : queueQuerySchema.parse({});
  // The page size stays in the client's parameters when the URL gives one: they key the hydrated first view
  // and every refetch, so a refetch (after a claim, say) asks for as many rows as the page showed.
  const { per_page: perPage, ...rest } = query satisfies QueueParams;
  const params: QueueParams = parsed.success && raw.per_page !== undefined ? { ...rest, per_page: perPage } : rest;
  const queryClient = new QueryClient();
  try {
    const data = await audited(
      requestContext(user, await headers()),
      {
        action: "case.list",
        details: { queue: query.queue, sort: query.sort, flag: query.flag ?? null, age: query.age ?? null },
        detailsOf: (list) => ({ count: list.items.length }),
      },
      async () => listQueue(await getDb(), (await pageConnection()).id, query, user),
    );
    queryClient.setQueryData(caseKeys.queue(params), data);
  } catch {
    // The client asks GET /api/cases and shows that answer's own state.
  }
  return (
    <HydratedClient
      queryClient={queryClient}
      namespaces={[
        "cases.flags",
        "cases.priority",
        "cases.queue",
        "cases.samePerson",
        "cases.shortcuts",
        "cases.state",
        "verifications.errors",
        "views.save",
        "monitoring.queue",
        "monitoring.notes",
      ]}
    >
      <CasesPageClient initial={params} viewer={{ id: user.id, permissions: user.permissions }} />
    </HydratedClient>
  );
}

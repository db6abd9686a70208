import { headers } from "next/headers";

import { CaseQueue } from "@/components/cases/case-queue";
import type { QueueStaff, QueueView } from "@/components/cases/queue-view";
import { AlertQueueIsland } from "@/components/monitoring/alert-queue-island";
import { SaveViewDialog } from "@/components/views/save-view-dialog";
import { serverErrorOf } from "@/lib/api/errors";
import { audited, requestContext } from "@/lib/audit-trail/server";
import { hasPermission } from "@/lib/auth/has-permission";
import type { StaffSession } from "@/lib/auth/types";
import type { QueueParams } from "@/lib/cases/queue-requests";
import { listQueue } from "@/lib/cases/server/queue";
import { readRouting } from "@/lib/cases/server/routing";
import { queueQuerySchema, type QueueQuery } from "@/lib/cases/validation";
import { pageConnection, requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb, type Database } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import type { PageSearchParams } from "@/lib/shared/page-search-params";

// /cases: the review queue. The view is read here (the same function as GET /api/cases) and handed to the queue, with
// no client data cache; a tab, sort, filter or page asks the server for the next view, and the queue reads its own view
// again after an action or a live event (components/cases/use-queue-data.ts). Unknown parameters fall back to the open
// queue. The bulk bar's assignees (the routing's staff) are read for cases.assign holders only, as GET /api/cases/routing.
export default async function CasesPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const user = await requireConnectionPageUser("cases.read");
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([key, value]) => [key, [value ?? []].flat()[0]]));
  const parsed = queueQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : queueQuerySchema.parse({});
  // The page size stays in the view's parameters when the address gives one, so the queue's own reads ask for as many
  // rows as the page showed.
  const { per_page: perPage, ...rest } = query satisfies QueueParams;
  const params: QueueParams = parsed.success && raw.per_page !== undefined ? { ...rest, per_page: perPage } : rest;
  const db = await getDb();
  const [answer, staff] = await Promise.all([
    readQueue(db, user, query),
    hasPermission(user, "cases.assign") ? readRouting(db).then((routing): QueueStaff => routing.staff) : ([] as QueueStaff),
  ]);
  const viewer = { id: user.id, permissions: user.permissions };
  return (
    <ClientMessages
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
        "common.loading",
      ]}
    >
      <CaseQueue view={{ params, answer }} viewer={viewer} staff={staff} actions={<SaveViewDialog scope="cases" />} />
      <AlertQueueIsland viewer={viewer} />
    </ClientMessages>
  );
}

/** The queue's view, or the failure as GET /api/cases would have answered it. */
async function readQueue(db: Database, user: StaffSession, query: QueueQuery): Promise<QueueView["answer"]> {
  try {
    const data = await audited(
      requestContext(user, await headers()),
      {
        action: "case.list",
        details: { queue: query.queue, sort: query.sort, flag: query.flag ?? null, age: query.age ?? null },
        detailsOf: (list) => ({ count: list.items.length }),
      },
      async () => listQueue(db, (await pageConnection()).id, query, user),
    );
    return { data };
  } catch (error) {
    return { error: serverErrorOf(error) };
  }
}

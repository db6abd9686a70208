import "server-only";

import { and, desc, eq, gte, inArray, lt, or, sql } from "drizzle-orm";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { Database } from "@/lib/db/client";
import type { DeliveryHealth } from "@/lib/webhooks/types";

import { WEBHOOK_DELIVERY_STATES, webhookDeliveries } from "./tables";

/*
 * Delivery health (issue 35, item 5): how the service's event deliveries are faring, for a connection's admins. One
 * receiving address serves every connection, and a delivery belongs to a connection once its event is routed
 * (lib/webhooks/server/route-connection.ts); so a connection's admins see the deliveries routed to it, and those routed
 * to none yet (waiting, failed, unreadable or ignored), which may be theirs. Failing, over the last day: a delivery
 * given up (`failed`), a body that could not be read (`unparseable`), one still waiting past STUCK_MS, or deliveries
 * that stopped (`stopped`): a verification created here (its `verification.create` on the trail) over STUCK_MS ago and
 * after the last delivery arrived, which should have brought its `verification.created` (api/webhooks.mdx's catalogue).
 * States and counts only: no body, no error text, no personal data.
 */

const WINDOW_MS = 24 * 3_600_000;
const STUCK_MS = 15 * 60_000;
const RECENT = 20;
/** The states that fail a delivery for good; with `stuck` and `stopped`, the whole failing rule, stated once here. */
const GIVEN_UP = ["failed", "unparseable"] as const;

/** The failing rule's two delivery conditions at `now`: given up in the window, or still waiting past STUCK_MS. */
function failingConditions(now: Date) {
  const since = new Date(now.getTime() - WINDOW_MS);
  return {
    since,
    givenUp: and(gte(webhookDeliveries.receivedAt, since), inArray(webhookDeliveries.state, [...GIVEN_UP])),
    stuck: and(eq(webhookDeliveries.state, "pending"), lt(webhookDeliveries.receivedAt, new Date(now.getTime() - STUCK_MS))),
  };
}

/** The deliveries a connection's admins see: routed to it, or to none yet. */
function deliveriesOf(connectionId: string) {
  // Written out with the tables named: inside a select's columns the builder leaves a column unqualified, and
  // `delivery_id` would then be the event's own.
  const routedHere = sql`exists (select 1 from verification_events e where e.delivery_id = webhook_deliveries.delivery_id and e.connection_id = ${connectionId})`;
  const routedNowhere = sql`not exists (select 1 from verification_events e where e.delivery_id = webhook_deliveries.delivery_id)`;
  return or(routedHere, routedNowhere);
}

/**
 * Verifications created under the connection in the window, old enough that their creation's delivery is due, and
 * newer than the last delivery it received: none arrived since, so deliveries have stopped (or were never set up).
 */
async function unannouncedCreations(db: Database, connectionId: string, now: Date): Promise<number> {
  const since = new Date(now.getTime() - WINDOW_MS);
  const lastDelivery = sql`(select max(received_at) from webhook_deliveries where ${deliveriesOf(connectionId)})`;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, "verification.create"),
        eq(auditEvents.outcome, "success"),
        eq(auditEvents.connectionId, connectionId),
        gte(auditEvents.at, since),
        lt(auditEvents.at, new Date(now.getTime() - STUCK_MS)),
        sql`${auditEvents.at} > coalesce(${lastDelivery}, ${since.toISOString()}::timestamptz)`,
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * Whether deliveries are failing for the connection, by the rule `deliveryHealth` reports its reasons by, in one query
 * that stops at the first: what the shell asks on every page an integration admin opens (the navigation's marker and
 * the administration page's warning), so it reads no more than that.
 */
export async function deliveriesFailing(db: Database, connectionId: string, now = new Date()): Promise<boolean> {
  const { givenUp, stuck } = failingConditions(now);
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(webhookDeliveries)
    .where(and(deliveriesOf(connectionId), or(givenUp, stuck)))
    .limit(1);
  return row !== undefined || (await unannouncedCreations(db, connectionId, now)) > 0;
}

export async function deliveryHealth(db: Database, connectionId: string, now = new Date()): Promise<DeliveryHealth> {
  const { since, stuck: stuckNow } = failingConditions(now);
  const mine = deliveriesOf(connectionId);
  const counted = await db
    .select({ state: webhookDeliveries.state, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(and(mine, gte(webhookDeliveries.receivedAt, since)))
    .groupBy(webhookDeliveries.state);
  const counts = Object.fromEntries(WEBHOOK_DELIVERY_STATES.map((state) => [state, 0])) as DeliveryHealth["counts"];
  for (const row of counted) counts[row.state] = Number(row.n);
  const [stuck] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(and(mine, stuckNow));
  const recent = await db
    .select({
      receivedAt: webhookDeliveries.receivedAt,
      event: webhookDeliveries.event,
      state: webhookDeliveries.state,
      attempts: webhookDeliveries.attempts,
      routedTo: sql<
        string | null
      >`(select e.connection_id from verification_events e where e.delivery_id = webhook_deliveries.delivery_id limit 1)`,
    })
    .from(webhookDeliveries)
    .where(mine)
    .orderBy(desc(webhookDeliveries.receivedAt), desc(webhookDeliveries.id))
    .limit(RECENT);
  const unannounced = await unannouncedCreations(db, connectionId, now);
  const failing = [
    ...GIVEN_UP.filter((state) => counts[state] > 0),
    ...(Number(stuck?.n ?? 0) > 0 ? (["stuck"] as const) : []),
    ...(unannounced > 0 ? (["stopped"] as const) : []),
  ];
  return {
    since: since.toISOString(),
    counts,
    stuck: Number(stuck?.n ?? 0),
    unannounced,
    lastReceivedAt: recent[0]?.receivedAt.toISOString() ?? null,
    failing,
    recent: recent.map((row) => ({
      receivedAt: row.receivedAt.toISOString(),
      event: row.event,
      state: row.state,
      attempts: row.attempts,
      connectionId: row.routedTo,
    })),
  };
}

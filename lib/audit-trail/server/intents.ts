import "server-only";

import { and, asc, eq, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { Database } from "@/lib/db/client";

/*
 * Intents without an outcome: an action with an upstream side effect whose end nobody recorded (the
 * process died during the call, or the outcome could not be written). Whether the service acted is
 * unknown; an operator checks each one at the provider. `npm run audit:verify` lists them.
 */

export interface OpenIntent {
  id: number;
  at: Date;
  actorEmail: string | null;
  action: string;
  target: string | null;
}

/** Intents older than `graceMs` (calls still running are not open yet) with no event naming them. */
export async function listOpenIntents(db: Database, { now = new Date(), graceMs = 5 * 60_000, limit = 100 } = {}): Promise<OpenIntent[]> {
  const outcome = alias(auditEvents, "outcome_event");
  return db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      actorEmail: auditEvents.actorEmail,
      action: auditEvents.action,
      target: auditEvents.target,
    })
    .from(auditEvents)
    .leftJoin(outcome, and(eq(outcome.action, auditEvents.action), sql`${outcome.details}->>'intent' = ${auditEvents.id}::text`))
    .where(and(eq(auditEvents.outcome, "intent"), lt(auditEvents.at, new Date(now.getTime() - graceMs)), sql`${outcome.id} is null`))
    .orderBy(asc(auditEvents.id))
    .limit(limit);
}

import "server-only";

import { eq } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { staffUsers } from "@/lib/auth/server/tables";
import { autoAssign, releaseCasesOf } from "@/lib/cases/server/auto-assign";
import type { Database } from "@/lib/db/client";
import { releaseAlertsOf } from "@/lib/monitoring/server/alerts";
import { dispatchOpenedAlerts } from "@/lib/monitoring/server/routing";

/*
 * A member's availability: away (their own toggle) or disabled (an admin's). Either way the work they hold goes back
 * to its queues unassigned in the transaction that marks them, both kinds of it: their open, undecided cases
 * (lib/cases releaseCasesOf) and their open monitoring alerts (lib/monitoring releaseAlertsOf), each unassignment on
 * the trail with the reason. Once that has committed, each kind is auto-assigned again by its own pass (the cases'
 * autoAssign; the alerts' dispatchOpenedAlerts, which also tells the queue's leads of an alert left waiting), which
 * passes the away or disabled member by. Auto-assignment locks the settings row before any item, so it runs after the
 * commit, never inside the transaction that released the items.
 */

/** What a member's work handed back came to: cases and alerts released, and how many of each were assigned again. */
export interface Released {
  released: number;
  reassigned: number;
  alertsReleased: number;
  alertsReassigned: number;
}

type Actor = { id: string; email: string };

/** Their cases, then their alerts, back to their queues, in the caller's transaction. */
async function releaseHeld(tx: Database, userId: string, reason: "away" | "disabled", actor: Actor, ip: string | null, now: Date) {
  const cases = await releaseCasesOf(tx, userId, reason, actor, ip, now);
  const alerts = await releaseAlertsOf(tx, userId, reason, actor, ip);
  return { cases, alerts };
}

/** After the commit: each kind auto-assigned again by its own pass. */
async function reassign(db: Database, held: { cases: string[]; alerts: string[] }, now: Date): Promise<Released> {
  const reassigned = await autoAssign(db, held.cases, now);
  const alertsReassigned = await dispatchOpenedAlerts(db, held.alerts, now);
  return {
    released: held.cases.length,
    reassigned: reassigned.length,
    alertsReleased: held.alerts.length,
    alertsReassigned: alertsReassigned.length,
  };
}

/** PUT /api/account/availability: the signed-in member marks themselves away (or back). */
export async function setAvailability(
  db: Database,
  context: { actor: Actor; ip: string | null; pageView?: string },
  away: boolean,
): Promise<{ away: boolean } & Released> {
  const now = new Date();
  const held = await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    await tx.update(staffUsers).set({ away, updatedAt: now }).where(eq(staffUsers.id, context.actor.id));
    const released = away ? await releaseHeld(tx, context.actor.id, "away", context.actor, context.ip, now) : { cases: [], alerts: [] };
    await recordEvent(
      {
        actor: context.actor,
        ip: context.ip,
        pageView: context.pageView,
        action: "staff.availability",
        target: { type: "staff", id: context.actor.id },
        outcome: "success",
        details: { away, released: released.cases.length, alertsReleased: released.alerts.length },
      },
      tx,
    );
    return released;
  });
  return { away, ...(await reassign(db, held, now)) };
}

/** After a member is disabled (PATCH /api/staff/:id): their cases and alerts back to their queues, then auto-assigned. */
export async function releaseDisabledMember(db: Database, userId: string, actor: Actor, ip: string | null): Promise<Released> {
  const now = new Date();
  const held = await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const [staff] = await tx.select({ disabled: staffUsers.disabled }).from(staffUsers).where(eq(staffUsers.id, userId));
    return staff?.disabled ? releaseHeld(tx, userId, "disabled", actor, ip, now) : { cases: [], alerts: [] };
  });
  return reassign(db, held, now);
}

/** Whether the member is marked away (the user menu's toggle). */
export async function isAway(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ away: staffUsers.away }).from(staffUsers).where(eq(staffUsers.id, userId));
  return row?.away ?? false;
}

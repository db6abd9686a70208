import "server-only";

import { and, desc, eq, isNull } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { hasPermission, type Permission } from "@/lib/auth/permissions";
import { staffUsers } from "@/lib/auth/server/tables";
import { caseQueues } from "@/lib/cases/server/tables";
import { membersUsing } from "@/lib/connections/server/access";
import type { Database } from "@/lib/db/client";
import type { AlertOutcome, MonitoringAlert } from "@/lib/monitoring/types";
import { kickOutbox } from "@/lib/notifications/server/outbox";
import { AppError } from "@/lib/shared/errors";

import { tellAssignee } from "./routing";
import { monitoringAlerts } from "./tables";

/*
 * The monitoring queue: the alerts the ongoing screening opened (./screening.ts), routed to the team's queues and
 * auto-assigned like cases (./routing.ts), worked like cases. A member holding cases.work takes an open alert nobody
 * holds (one conditional update: two members cannot both win it); a cases.assign holder gives an open alert to a
 * member (who is told: ./routing.ts, tellAssignee). Its holder writes notes on it (./notes.ts), then records
 * its outcome: `cleared` (the change needs nothing more) or `confirmed` (it was acted on, e.g. a COAF report or the
 * relationship reviewed). The outcome is the holder's, or any cases.assign holder's. Each step is on the audit trail
 * in the same transaction, on the verification, with the change (one alert per verification and change).
 */

export interface AlertActor {
  actor: { id: string; email: string; permissions: readonly Permission[] };
  ip: string | null;
  pageView?: string;
}

const LIST_LIMIT = 200;

/** The connection's alerts, newest first: the open ones, or the closed; of one queue when `queueId` is given. */
export async function listAlerts(
  db: Database,
  connectionId: string,
  status: "open" | "closed",
  queueId?: string,
): Promise<MonitoringAlert[]> {
  const rows = await db
    .select({
      alert: monitoringAlerts,
      assigneeName: staffUsers.name,
      assigneeEmail: staffUsers.email,
      queueName: caseQueues.name,
    })
    .from(monitoringAlerts)
    .leftJoin(staffUsers, eq(staffUsers.id, monitoringAlerts.assigneeId))
    .innerJoin(caseQueues, eq(caseQueues.id, monitoringAlerts.queueId))
    .where(
      and(
        eq(monitoringAlerts.connectionId, connectionId),
        eq(monitoringAlerts.status, status),
        queueId ? eq(monitoringAlerts.queueId, queueId) : undefined,
      ),
    )
    .orderBy(desc(monitoringAlerts.detectedAt), monitoringAlerts.change)
    .limit(LIST_LIMIT);
  return rows.map(({ alert, assigneeName, assigneeEmail, queueName }) => ({
    id: alert.id,
    publicId: alert.publicId,
    documentMasked: alert.documentMasked,
    change: alert.change,
    detectedAt: alert.detectedAt.toISOString(),
    status: alert.status,
    queue: { id: alert.queueId, name: queueName },
    assignee: alert.assigneeId ? { id: alert.assigneeId, name: assigneeName || assigneeEmail || "" } : null,
    outcome: alert.outcome,
    outcomeAt: alert.outcomeAt?.toISOString() ?? null,
  }));
}

/** The audit event of a step on an alert: on the verification, with the change (the pair names the alert). */
function eventOf(context: AlertActor, alert: { publicId: string; change: string }, extra: Record<string, string> = {}) {
  return {
    actor: context.actor,
    ip: context.ip,
    pageView: context.pageView,
    target: { type: "verification" as const, id: alert.publicId },
    outcome: "success" as const,
    details: { change: alert.change, ...extra },
  };
}

/**
 * Gives an open alert a holder: `me` takes one nobody holds (cases.work; 409 when held or closed); a member's id gives
 * it to them, held or not (cases.assign; 403 otherwise; 400 naming `assignee` for a member unknown, disabled or who
 * may not use the alert's connection). 404 unknown (or another connection's). The new holder is told unless they took
 * it themselves; the change and its audit event commit together.
 */
export async function assignAlert(
  db: Database,
  context: AlertActor,
  connectionId: string,
  id: string,
  assignee: "me" | string,
  now = new Date(),
): Promise<{ assigneeId: string }> {
  const to = assignee === "me" ? context.actor.id : assignee;
  // `me` (or one's own id without cases.assign) is a claim: of an alert nobody holds.
  const claim = assignee === "me" || (to === context.actor.id && !hasPermission(context.actor, "cases.assign"));
  if (!claim && !hasPermission(context.actor, "cases.assign"))
    throw new AppError("forbidden", "Giving an alert to someone else needs the cases.assign permission.");
  const email = to === context.actor.id ? context.actor.email : await assignable(db, to, connectionId);
  await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const [taken] = await tx
      .update(monitoringAlerts)
      .set({ assigneeId: to, assignedAt: now })
      .where(
        and(
          eq(monitoringAlerts.id, id),
          eq(monitoringAlerts.connectionId, connectionId),
          eq(monitoringAlerts.status, "open"),
          // A claim only of an alert nobody holds; who runs the queue may give a held one to someone else.
          claim ? isNull(monitoringAlerts.assigneeId) : undefined,
        ),
      )
      .returning();
    if (!taken) throw await refusal(tx, connectionId, id);
    await tellAssignee(tx, { id, publicId: taken.publicId, assigneeId: to, assignedAt: now }, context.actor.id);
    const extra: Record<string, string> = to === context.actor.id ? {} : { assignee: email };
    await recordEvent({ action: "monitoring.alert_assign", ...eventOf(context, taken, extra) }, tx);
  });
  if (assignee !== "me" && to !== context.actor.id) void kickOutbox();
  return { assigneeId: to };
}

/** A member an alert may be given to: active, and allowed the alert's connection (400 naming `assignee` otherwise). */
async function assignable(db: Database, userId: string, connectionId: string): Promise<string> {
  const [staff] = await db
    .select({ email: staffUsers.email, disabled: staffUsers.disabled })
    .from(staffUsers)
    .where(eq(staffUsers.id, userId));
  const allowed = staff && !staff.disabled && (await membersUsing(db, [userId], connectionId)).length === 1;
  if (!allowed)
    throw new AppError("validation", "Invalid input: assignee: no active staff member who may use this connection has this id", {
      fields: ["assignee"],
    });
  return staff.email;
}

/** Records an open alert's outcome and closes it: its holder's, or a cases.assign holder's (403 otherwise). */
export async function decideAlert(
  db: Database,
  context: AlertActor,
  connectionId: string,
  id: string,
  outcome: AlertOutcome,
  now = new Date(),
): Promise<void> {
  await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const [row] = await tx
      .select()
      .from(monitoringAlerts)
      .where(and(eq(monitoringAlerts.id, id), eq(monitoringAlerts.connectionId, connectionId)))
      .for("update");
    if (!row) throw new AppError("not_found", "No monitoring alert has this id.");
    if (row.status !== "open") throw new AppError("conflict", "This alert is closed.");
    if (row.assigneeId !== context.actor.id && !hasPermission(context.actor, "cases.assign"))
      throw new AppError("forbidden", "Only the alert's holder, or who runs the queue, records its outcome.");
    await tx
      .update(monitoringAlerts)
      .set({ status: "closed", outcome, outcomeBy: context.actor.id, outcomeAt: now })
      .where(eq(monitoringAlerts.id, id));
    await recordEvent({ action: "monitoring.alert_outcome", ...eventOf(context, row, { outcome }) }, tx);
  });
}

async function refusal(tx: Database, connectionId: string, id: string): Promise<AppError> {
  const [row] = await tx
    .select({ status: monitoringAlerts.status })
    .from(monitoringAlerts)
    .where(and(eq(monitoringAlerts.id, id), eq(monitoringAlerts.connectionId, connectionId)));
  if (!row) return new AppError("not_found", "No monitoring alert has this id.");
  return new AppError("conflict", row.status === "open" ? "Someone already holds this alert." : "This alert is closed.");
}

/**
 * A member away or disabled: their open alerts go back to their queues unassigned, in the caller's transaction (their
 * cases go with them: lib/account/server/availability.ts). Each is on the trail as assigning one is, on the
 * verification with the change: `monitoring.alert_unassign`, the reason named. Answers the released alerts' ids, for
 * the alerts' own auto-assignment once the caller has committed (dispatchOpenedAlerts, ./routing.ts).
 */
export async function releaseAlertsOf(
  tx: Database,
  userId: string,
  reason: "away" | "disabled",
  actor: { id: string; email: string } | null,
  ip: string | null,
): Promise<string[]> {
  const rows = await tx
    .update(monitoringAlerts)
    .set({ assigneeId: null, assignedAt: null })
    .where(and(eq(monitoringAlerts.status, "open"), eq(monitoringAlerts.assigneeId, userId)))
    .returning({ id: monitoringAlerts.id, publicId: monitoringAlerts.publicId, change: monitoringAlerts.change });
  for (const row of rows) {
    await recordEvent(
      {
        actor,
        ip,
        action: "monitoring.alert_unassign",
        target: { type: "verification", id: row.publicId },
        outcome: "success",
        details: { change: row.change, reason },
      },
      tx,
    );
  }
  return rows.map((row) => row.id);
}

import "server-only";

import { and, desc, eq, isNull } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { hasPermission, type Permission } from "@/lib/auth/permissions";
import { staffUsers } from "@/lib/auth/server/tables";
import type { Database } from "@/lib/db/client";
import type { AlertOutcome, MonitoringAlert } from "@/lib/monitoring/types";
import { AppError } from "@/lib/shared/errors";

import { monitoringAlerts } from "./tables";

/*
 * The monitoring queue: the alerts the ongoing screening opened (./screening.ts), worked like cases. A member holding
 * cases.work takes an open alert nobody holds (one conditional update: two members cannot both win it), then records
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

/** The connection's alerts, newest first: the open ones, or the closed. */
export async function listAlerts(db: Database, connectionId: string, status: "open" | "closed"): Promise<MonitoringAlert[]> {
  const rows = await db
    .select({ alert: monitoringAlerts, assigneeName: staffUsers.name, assigneeEmail: staffUsers.email })
    .from(monitoringAlerts)
    .leftJoin(staffUsers, eq(staffUsers.id, monitoringAlerts.assigneeId))
    .where(and(eq(monitoringAlerts.connectionId, connectionId), eq(monitoringAlerts.status, status)))
    .orderBy(desc(monitoringAlerts.detectedAt), monitoringAlerts.change)
    .limit(LIST_LIMIT);
  return rows.map(({ alert, assigneeName, assigneeEmail }) => ({
    id: alert.id,
    publicId: alert.publicId,
    documentMasked: alert.documentMasked,
    change: alert.change,
    detectedAt: alert.detectedAt.toISOString(),
    status: alert.status,
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

/** Takes an open alert nobody holds: 404 unknown (or another connection's), 409 closed or held. */
export async function takeAlert(db: Database, context: AlertActor, connectionId: string, id: string, now = new Date()): Promise<void> {
  await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const [taken] = await tx
      .update(monitoringAlerts)
      .set({ assigneeId: context.actor.id, assignedAt: now })
      .where(
        and(
          eq(monitoringAlerts.id, id),
          eq(monitoringAlerts.connectionId, connectionId),
          eq(monitoringAlerts.status, "open"),
          isNull(monitoringAlerts.assigneeId),
        ),
      )
      .returning();
    if (!taken) throw await refusal(tx, connectionId, id);
    await recordEvent({ action: "monitoring.alert_assign", ...eventOf(context, taken) }, tx);
  });
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

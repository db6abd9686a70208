import "server-only";

import { and, eq, inArray, isNull } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { routeCase, type RoutableCase, type RoutingRule } from "@/lib/cases/routing-rules";
import { autoAssignEach, type AutoAssignKind } from "@/lib/cases/server/auto-assign";
import { loadRules } from "@/lib/cases/server/routing";
import { caseQueueMembers } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { notify } from "@/lib/notifications/server/notify";
import { kickOutbox } from "@/lib/notifications/server/outbox";

import { monitoringAlerts } from "./tables";

/*
 * Monitoring alerts routed like cases (issue 34, item 2): the team's routing (lib/cases/server/routing.ts) decides an
 * alert's queue, its auto-assignment and who hears of it, with the cases' own functions.
 *
 * 1. Queue: when the screening opens an alert, the routing rules read it as a routable item whose red flag is the
 *    change's (`pep` → `pep`, `list:<name>` → `restrictive_list`, `deceased` → `deceased`), opened at its detection;
 *    flow, journey and risk are unknown, so a rule naming them does not match (lib/cases/routing-rules.ts). No rule
 *    matching: the default queue. A retired queue's open alerts go to the default queue (replaceRouting).
 * 2. Auto-assignment (the team's switch and capacity): an unassigned new alert goes to its queue's member holding the
 *    least work, under the capacity, neither away nor disabled, who may use its connection. Work held is held cases
 *    and held open alerts alike: an alert counts against the capacity, for alerts and cases. The pass is the cases'
 *    own (autoAssignEach, lib/cases/server/auto-assign.ts), told how an alert is read, claimed and recorded
 *    (alertKind): each alert in its own transaction that first locks the settings row (FOR UPDATE), then a conditional
 *    update (on the alert still unassigned and open), as cases are: two passes at once never push a member past the
 *    capacity nor assign one alert twice.
 * 3. Notifications: the assignee is told (`monitoring_alert_assigned`); an alert left unassigned tells its queue's
 *    leads (`monitoring_alert_waiting`), once per alert. Both link to the Monitoring queue.
 */

/** Where a monitoring notification opens: the Monitoring queue on the case queue page (under the alert's connection). */
export const MONITORING_QUEUE_LINK = "/cases#monitoring";

/** The red flag an alert's change stands for (lib/cases/rules.ts RED_FLAGS). */
export function flagOfChange(change: string): string {
  if (change.startsWith("list:")) return "restrictive_list";
  return change === "deceased" ? "deceased" : "pep";
}

/** What routing knows of an alert: its change's red flag and its detection; nothing of flow, journey or risk. */
export function routableAlert(alert: { change: string; detectedAt: Date }): RoutableCase {
  return { flags: [flagOfChange(alert.change)], flow: null, journey: null, riskScore: null, openedAt: alert.detectedAt };
}

/** The queue the team's rules (read once, now) send each alert to. */
export async function alertRouter(db: Database, now: Date): Promise<(alert: { change: string; detectedAt: Date }) => string> {
  const rules: RoutingRule[] = await loadRules(db);
  return (alert) => routeCase(routableAlert(alert), rules, now);
}

/**
 * After the alerts opened, or were handed back by a member away or disabled (lib/account/server/availability.ts), their
 * transaction committed: each is auto-assigned when the team's switch is on, and the leads of the queue of each still
 * unassigned are told of it (once per alert). Answers the alerts assigned.
 */
export async function dispatchOpenedAlerts(
  db: Database,
  ids: string[],
  now = new Date(),
): Promise<Array<{ id: string; assigneeId: string }>> {
  if (ids.length === 0) return [];
  const assigned = await autoAssignEach(db, ids, alertKind, now);
  const done = new Set(assigned.map((item) => item.key));
  // Telling is not worth a failed run: the alerts are open in their queue whatever happens here.
  await tellLeadsOfWaiting(
    db,
    ids.filter((id) => !done.has(id)),
  ).catch((error: unknown) => log.error("monitoring_alert_notify_failed", { error }));
  void kickOutbox();
  return assigned.map(({ key, assigneeId }) => ({ id: key, assigneeId }));
}

/** Alerts to the cases' auto-assignment pass: one failing waits unassigned in its queue, and its leads are told. */
const alertKind: AutoAssignKind<typeof monitoringAlerts.$inferSelect> = {
  failure: "monitoring_auto_assign_failed",
  async waiting(tx, id) {
    const [alert] = await tx
      .select()
      .from(monitoringAlerts)
      .where(and(eq(monitoringAlerts.id, id), eq(monitoringAlerts.status, "open"), isNull(monitoringAlerts.assigneeId)));
    return alert ?? null;
  },
  async claim(tx, alert, member, now) {
    const [row] = await tx
      .update(monitoringAlerts)
      .set({ assigneeId: member.userId, assignedAt: now })
      .where(and(eq(monitoringAlerts.id, alert.id), eq(monitoringAlerts.status, "open"), isNull(monitoringAlerts.assigneeId)))
      .returning({ id: monitoringAlerts.id });
    return !!row;
  },
  async record(tx, alert, member, now) {
    await tellAssignee(tx, { id: alert.id, publicId: alert.publicId, assigneeId: member.userId, assignedAt: now }, null);
    await recordEvent(
      {
        actor: null,
        action: "monitoring.alert_assign",
        target: { type: "verification", id: alert.publicId },
        outcome: "success",
        details: { change: alert.change, assignee: member.email, auto: true },
      },
      tx,
    );
  },
};

/** The alert's new holder hears of it, once per assignment (its time is the dedupe key), unless they took it. */
export async function tellAssignee(
  tx: Database,
  alert: { id: string; publicId: string; assigneeId: string; assignedAt: Date },
  actorId: string | null,
): Promise<void> {
  if (alert.assigneeId === actorId) return;
  await notify(tx, {
    userIds: [alert.assigneeId],
    kind: "monitoring_alert_assigned",
    casePublicId: alert.publicId,
    dedupeKey: `alert:${alert.id}:${alert.assignedAt.getTime()}`,
    link: MONITORING_QUEUE_LINK,
    actorId,
  });
}

/** Each alert still unassigned and open: its queue's leads hear of a new monitoring alert, once per alert. */
async function tellLeadsOfWaiting(db: Database, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const waiting = await tx
      .select({ id: monitoringAlerts.id, publicId: monitoringAlerts.publicId, queueId: monitoringAlerts.queueId })
      .from(monitoringAlerts)
      .where(and(inArray(monitoringAlerts.id, ids), eq(monitoringAlerts.status, "open"), isNull(monitoringAlerts.assigneeId)));
    if (waiting.length === 0) return;
    const leads = await tx
      .select({ queueId: caseQueueMembers.queueId, userId: caseQueueMembers.userId })
      .from(caseQueueMembers)
      .where(
        and(
          inArray(
            caseQueueMembers.queueId,
            waiting.map((alert) => alert.queueId),
          ),
          eq(caseQueueMembers.lead, true),
        ),
      );
    for (const alert of waiting) {
      await notify(tx, {
        userIds: leads.filter((lead) => lead.queueId === alert.queueId).map((lead) => lead.userId),
        kind: "monitoring_alert_waiting",
        casePublicId: alert.publicId,
        dedupeKey: `alert:${alert.id}`,
        link: MONITORING_QUEUE_LINK,
      });
    }
  });
}

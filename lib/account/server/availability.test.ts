import { randomUUID } from "node:crypto";

import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { listStaff } from "@/lib/auth/server/staff-store";
import { staffUsers } from "@/lib/auth/server/tables";
import { assignCase } from "@/lib/cases/server/assignment";
import type { CaseContext } from "@/lib/cases/server/context";
import { replaceRouting } from "@/lib/cases/server/routing";
import { caseQueues, cases, DEFAULT_QUEUE_ID } from "@/lib/cases/server/tables";
import { monitoringAlerts } from "@/lib/monitoring/server/tables";
import { notifications } from "@/lib/notifications/server/tables";
import { makeStaff } from "@/test/cases";
import { describeEachDatabase, stubTestEnvironment, withDatabase } from "@/test/db";
import { routingHelpers } from "@/test/routing";

import { releaseDisabledMember, setAvailability } from "./availability";

/*
 * A member away or disabled hands back the work they hold, cases and monitoring alerts, in the transaction that marks
 * them; each kind is auto-assigned again to the queue's members with room, the away or disabled one passed by. An
 * alert already closed stays as it was; each alert handed back is on the trail with the reason, then its
 * auto-assignment. With auto-assignment off, a handed-back alert waits and its queue's leads are told.
 */

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

const T0 = new Date("2026-10-01T12:00:00Z");

describeEachDatabase("a member's availability on $name", ({ open }) => {
  const handle = withDatabase(open);
  let admin: CaseContext;
  beforeAll(async () => {
    admin = await makeStaff(handle.db, "admin");
  });

  const { openCase, caseRow, configure } = routingHelpers(
    () => handle.db,
    () => admin,
  );

  /** A monitoring alert on an approved case of its own, in this queue, held by this member (or nobody). */
  async function openAlert(queueId: string, assigneeId: string | null, status: "open" | "closed" = "open"): Promise<string> {
    const publicId = `ver-${randomUUID()}`;
    await handle.db
      .insert(cases)
      .values({ publicId, upstreamStatus: "approved", dueAt: T0, recommendation: "approve", outcomeState: "recorded" });
    const [alert] = await handle.db
      .insert(monitoringAlerts)
      .values({
        publicId,
        connectionId: "primary",
        change: "pep",
        detectedAt: T0,
        queueId,
        assigneeId,
        assignedAt: assigneeId ? T0 : null,
        status,
        outcome: status === "closed" ? "cleared" : null,
      })
      .returning({ id: monitoringAlerts.id });
    return alert!.id;
  }

  const alertRow = async (id: string) => (await handle.db.select().from(monitoringAlerts).where(eq(monitoringAlerts.id, id)))[0]!;

  /** The alerts' assignment steps on the trail, in order: [action, actor, details]. */
  async function alertTrail(ids: string[]) {
    const targets = await Promise.all(ids.map(async (id) => (await alertRow(id)).publicId));
    const events = await handle.db
      .select()
      .from(auditEvents)
      .where(
        and(inArray(auditEvents.target, targets), inArray(auditEvents.action, ["monitoring.alert_unassign", "monitoring.alert_assign"])),
      )
      .orderBy(asc(auditEvents.id));
    return events.map((event) => [event.action, event.actorId, event.details]);
  }

  const told = (kind: "monitoring_alert_assigned" | "monitoring_alert_waiting", userId: string) =>
    handle.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, kind), eq(notifications.userId, userId)));

  it("a member going away or disabled hands their open cases back, auto-assigned again to the others", async () => {
    const [leaving, staying, disabled] = await Promise.all(
      ["reviewer", "reviewer", "reviewer"].map((role) => makeStaff(handle.db, role as "reviewer")),
    );
    await configure(
      [leaving!, staying!, disabled!].map((staff) => ({ userId: staff.actor.id })),
      { capacity: 5, autoAssign: false },
    );
    const mine = await openCase({ pepOrigin: "Prefeito" });
    await assignCase(handle.db, leaving!, mine, "me");
    const theirs = await openCase({ pepOrigin: "Prefeito" });
    await assignCase(handle.db, disabled!, theirs, "me");
    const result = await setAvailability(handle.db, leaving!, true);
    expect(result).toMatchObject({ away: true, released: 1, reassigned: 0 }); // auto-assignment off: waits unassigned
    expect((await caseRow(mine)).assigneeId).toBeNull();
    const [availability] = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "staff.availability"), eq(auditEvents.actorId, leaving!.actor.id)));
    expect(availability).toMatchObject({ actorId: leaving!.actor.id, outcome: "success" });
    // The staff list shows who is away (and only them).
    const awayOf = async () => new Map((await listStaff(handle.db)).map((member) => [member.id, member.away]));
    expect((await awayOf()).get(leaving!.actor.id)).toBe(true);
    expect((await awayOf()).get(staying!.actor.id)).toBe(false);
    await setAvailability(handle.db, leaving!, false);
    expect((await awayOf()).get(leaving!.actor.id)).toBe(false);
    await assignCase(handle.db, leaving!, mine, "me");
    const [row] = await handle.db
      .select()
      .from(caseQueues)
      .where(eq(caseQueues.id, (await caseRow(mine)).queueId));
    await replaceRouting(handle.db, admin, {
      autoAssign: true,
      capacity: 5,
      queues: [
        { id: DEFAULT_QUEUE_ID, name: "General", members: [] },
        {
          id: row!.id,
          name: row!.name,
          members: [leaving!, staying!, disabled!].map((staff) => ({ userId: staff.actor.id, lead: false })),
        },
      ],
      rules: [],
    });
    expect((await setAvailability(handle.db, leaving!, true)).reassigned).toBe(1);
    expect((await caseRow(mine)).assigneeId).toBe(staying!.actor.id);
    await handle.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, disabled!.actor.id));
    expect((await releaseDisabledMember(handle.db, disabled!.actor.id, admin.actor, null)).released).toBe(1);
    expect((await caseRow(theirs)).assigneeId).toBe(staying!.actor.id);
  });

  it("going away hands back the member's open alerts, auto-assigned to a member with room; a closed one stays", async () => {
    const [leaving, staying, full] = await Promise.all(
      ["analyst", "analyst", "analyst"].map((role) => makeStaff(handle.db, role as "analyst")),
    );
    const queueId = await configure(
      [leaving!, staying!, full!].map((staff) => ({ userId: staff.actor.id })),
      { capacity: 1 },
    );
    await openAlert(queueId, full!.actor.id); // at the capacity: passed by
    const held = await openAlert(queueId, leaving!.actor.id);
    const closed = await openAlert(queueId, leaving!.actor.id, "closed");

    const result = await setAvailability(handle.db, leaving!, true);
    expect(result).toEqual({ away: true, released: 0, reassigned: 0, alertsReleased: 1, alertsReassigned: 1 });
    expect((await alertRow(held)).assigneeId).toBe(staying!.actor.id);
    expect(await alertRow(closed)).toMatchObject({ status: "closed", outcome: "cleared", assigneeId: leaving!.actor.id });
    expect(await told("monitoring_alert_assigned", staying!.actor.id)).toHaveLength(1);

    // On the trail: handed back by the member with the reason, then given by the system; nothing of the closed one.
    expect(await alertTrail([held, closed])).toEqual([
      ["monitoring.alert_unassign", leaving!.actor.id, { change: "pep", reason: "away" }],
      ["monitoring.alert_assign", null, { change: "pep", assignee: staying!.actor.email, auto: true }],
    ]);
    const [availability] = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "staff.availability"), eq(auditEvents.actorId, leaving!.actor.id)));
    expect(availability?.details).toMatchObject({ away: true, released: 0, alertsReleased: 1 });
  });

  it("disabling a member hands back their cases and alerts together, auto-assigned to the others", async () => {
    const [member, other] = await Promise.all(["reviewer", "reviewer"].map((role) => makeStaff(handle.db, role as "reviewer")));
    const queueId = await configure(
      [member!, other!].map((staff) => ({ userId: staff.actor.id })),
      { capacity: 5 },
    );
    const mine = await openCase({ pepOrigin: "Prefeito" });
    await assignCase(handle.db, admin, mine, member!.actor.id);
    const held = await openAlert(queueId, member!.actor.id);
    const closed = await openAlert(queueId, member!.actor.id, "closed");

    await handle.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, member!.actor.id));
    expect(await releaseDisabledMember(handle.db, member!.actor.id, admin.actor, null)).toEqual({
      released: 1,
      reassigned: 1,
      alertsReleased: 1,
      alertsReassigned: 1,
    });
    expect((await caseRow(mine)).assigneeId).toBe(other!.actor.id);
    expect((await alertRow(held)).assigneeId).toBe(other!.actor.id);
    expect((await alertRow(closed)).assigneeId).toBe(member!.actor.id);
    expect(await alertTrail([held, closed])).toEqual([
      ["monitoring.alert_unassign", admin.actor.id, { change: "pep", reason: "disabled" }],
      ["monitoring.alert_assign", null, { change: "pep", assignee: other!.actor.email, auto: true }],
    ]);
  });

  it("with auto-assignment off, a handed-back alert waits in its queue and the queue's leads are told", async () => {
    const [leaving, lead] = await Promise.all(["analyst", "analyst"].map((role) => makeStaff(handle.db, role as "analyst")));
    const queueId = await configure([{ userId: leaving!.actor.id }, { userId: lead!.actor.id, lead: true }], { autoAssign: false });
    const held = await openAlert(queueId, leaving!.actor.id);
    expect(await setAvailability(handle.db, leaving!, true)).toMatchObject({ alertsReleased: 1, alertsReassigned: 0 });
    expect(await alertRow(held)).toMatchObject({ status: "open", assigneeId: null, assignedAt: null });
    expect(await told("monitoring_alert_waiting", lead!.actor.id)).toHaveLength(1);
  });
});

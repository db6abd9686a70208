import { randomUUID } from "node:crypto";

import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";

import { cpfHash } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { staffUsers } from "@/lib/auth/server/tables";
import type { RoutingConfigInput } from "@/lib/cases/routing-validation";
import { replaceRouting } from "@/lib/cases/server/routing";
import { openCaseText } from "@/lib/cases/server/sealed-text";
import { caseEntries, cases, DEFAULT_QUEUE_ID, verificationIndex } from "@/lib/cases/server/tables";
import { resealCaseTexts } from "@/lib/cases/server/text-reseal";
import { createDatabase } from "@/lib/db/client";
import { sealedTextKeyId } from "@/lib/keys/ring";
import { notifications } from "@/lib/notifications/server/tables";
import { confirmErasure, requestErasure } from "@/lib/privacy/server/erasure";
import { AppError } from "@/lib/shared/errors";
import { makeStaff } from "@/test/cases";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, stubTestEnvironment, TEST_SECRETS, withDatabase } from "@/test/db";

import { assignAlert } from "./alerts";
import { addAlertNote, listAlertNotes } from "./notes";
import { alertRouter, dispatchOpenedAlerts, flagOfChange } from "./routing";
import { monitoringAlerts } from "./tables";

/*
 * Monitoring alerts routed like cases: the team's rules pick an alert's queue from its change's red flag (rules naming
 * a flow, a journey or a risk never match one); auto-assignment gives it to the queue's least loaded member under the
 * capacity (held cases and held alerts both count), never to one away or disabled, and never past the capacity when
 * two passes race (PostgreSQL); the assignee is told once, or the queue's leads when it waits unassigned. Notes: the
 * holder's or a cases.assign holder's, sealed at rest, their length (never their text) on the trail, re-sealed by the
 * case texts' job and erased by a titular's erasure.
 */

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());
afterEach(() => stubConfigEnv({ DATA_ENCRYPTION_SECRET: TEST_SECRETS.DATA_ENCRYPTION_SECRET }));

const T0 = new Date("2026-10-01T12:00:00Z");

it("reads an alert's change as the red flag the routing rules name", () => {
  expect(["pep", "list:OFAC", "list:CEIS", "deceased"].map(flagOfChange)).toEqual([
    "pep",
    "restrictive_list",
    "restrictive_list",
    "deceased",
  ]);
});

describeEachDatabase("monitoring alerts routed like cases on $name", ({ open }) => {
  const handle = withDatabase(open);

  async function approvedCase(cpf?: string): Promise<string> {
    const publicId = `ver-${randomUUID()}`;
    await handle.db
      .insert(cases)
      .values({ publicId, upstreamStatus: "approved", dueAt: T0, recommendation: "approve", outcomeState: "recorded" });
    if (cpf) await handle.db.insert(verificationIndex).values({ publicId, cpfHash: cpfHash(cpf), documentMasked: "***.982.247-**" });
    return publicId;
  }

  async function openAlert(change = "pep", queueId = DEFAULT_QUEUE_ID, publicId?: string): Promise<string> {
    const [alert] = await handle.db
      .insert(monitoringAlerts)
      .values({ publicId: publicId ?? (await approvedCase()), connectionId: "primary", change, detectedAt: T0, queueId })
      .returning({ id: monitoringAlerts.id });
    return alert!.id;
  }

  const alertRow = async (id: string) => (await handle.db.select().from(monitoringAlerts).where(eq(monitoringAlerts.id, id)))[0]!;
  const told = (kind: string, userId: string) =>
    handle.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, kind as "monitoring_alert_assigned"), eq(notifications.userId, userId)));

  /** The team's routing: a queue of its own with these members, PEP-or-list alerts routed to it. */
  async function configure(members: Array<{ userId: string; lead?: boolean }>, options: Partial<RoutingConfigInput> = {}) {
    const admin = await makeStaff(handle.db, "admin");
    const queueId = randomUUID();
    await replaceRouting(handle.db, admin, {
      autoAssign: true,
      capacity: 2,
      queues: [
        { id: DEFAULT_QUEUE_ID, name: "General", members: [] },
        { id: queueId, name: `Watch ${queueId.slice(0, 8)}`, members: members.map((member) => ({ lead: false, ...member })) },
      ],
      rules: [
        // Alerts know no flow, journey or risk: these rules never take one, even listed first.
        { queueId: DEFAULT_QUEUE_ID, conditions: { flags: ["pep"], flows: ["onboarding"] } },
        { queueId: DEFAULT_QUEUE_ID, conditions: { minRisk: 0 } },
        { queueId, conditions: { flags: ["pep", "restrictive_list"] } },
      ],
      ...options,
    });
    return { queueId, admin };
  }

  it("sends an alert to the queue of the first rule its change's flag matches, else the default queue", async () => {
    const { queueId, admin } = await configure([]);
    const route = await alertRouter(handle.db, T0);
    expect([route({ change: "pep", detectedAt: T0 }), route({ change: "list:OFAC", detectedAt: T0 })]).toEqual([queueId, queueId]);
    expect(route({ change: "deceased", detectedAt: T0 })).toBe(DEFAULT_QUEUE_ID);

    // The queue retired: its open alerts go to the default queue, as its cases do; a closed one stays.
    const [waiting, closed] = [await openAlert("pep", queueId), await openAlert("pep", queueId)];
    await handle.db.update(monitoringAlerts).set({ status: "closed", outcome: "cleared" }).where(eq(monitoringAlerts.id, closed));
    await replaceRouting(handle.db, admin, {
      autoAssign: false,
      capacity: 2,
      queues: [{ id: DEFAULT_QUEUE_ID, name: "General", members: [] }],
      rules: [],
    });
    expect([(await alertRow(waiting)).queueId, (await alertRow(closed)).queueId]).toEqual([DEFAULT_QUEUE_ID, queueId]);
  });

  it("auto-assigns to the least loaded member under the capacity, held cases and alerts alike, skipping the away", async () => {
    const [busy, free, away] = await Promise.all([
      makeStaff(handle.db, "analyst"),
      makeStaff(handle.db, "analyst"),
      makeStaff(handle.db, "analyst"),
    ]);
    const lead = await makeStaff(handle.db, "analyst");
    const { queueId } = await configure([
      { userId: busy.actor.id },
      { userId: free.actor.id },
      { userId: away.actor.id },
      { userId: lead.actor.id, lead: true },
    ]);
    await handle.db.update(staffUsers).set({ away: true }).where(eq(staffUsers.id, away.actor.id));
    // The lead is full (capacity 2): one held case and one held alert.
    const held = await approvedCase();
    await handle.db
      .update(cases)
      .set({ status: "open", assigneeId: lead.actor.id, recommendation: null, outcomeState: null })
      .where(eq(cases.publicId, held));
    const heldAlert = await openAlert("pep", queueId);
    await handle.db.update(monitoringAlerts).set({ assigneeId: lead.actor.id }).where(eq(monitoringAlerts.id, heldAlert));
    // `busy` holds one alert already.
    const busyAlert = await openAlert("pep", queueId);
    await handle.db.update(monitoringAlerts).set({ assigneeId: busy.actor.id }).where(eq(monitoringAlerts.id, busyAlert));

    const first = await openAlert("list:OFAC", queueId);
    expect(await dispatchOpenedAlerts(handle.db, [first], T0)).toEqual([{ id: first, assigneeId: free.actor.id }]);
    const second = await openAlert("pep", queueId);
    const third = await openAlert("pep", queueId);
    const assigned = await dispatchOpenedAlerts(handle.db, [second, third], T0);
    // Then each of `busy` and `free` holds 2 (the capacity), the lead 2, the away member nothing: a fourth waits, and
    // the queue's lead is told of it.
    expect(assigned.map((item) => item.assigneeId).sort()).toEqual([busy.actor.id, free.actor.id].sort());
    const fourth = await openAlert("deceased", queueId);
    expect(await dispatchOpenedAlerts(handle.db, [fourth], T0)).toEqual([]);
    expect((await alertRow(fourth)).assigneeId).toBeNull();
    expect(await told("monitoring_alert_waiting", lead.actor.id)).toHaveLength(1);
    expect(await told("monitoring_alert_assigned", away.actor.id)).toHaveLength(0);

    // The assignee is told once, however often the alert is dispatched again; the auto-assignment is on the trail.
    await dispatchOpenedAlerts(handle.db, [first], T0);
    const mine = await told("monitoring_alert_assigned", free.actor.id);
    const firstCase = (await alertRow(first)).publicId;
    expect(mine.filter((row) => row.casePublicId === firstCase)).toHaveLength(1);
    expect(mine[0]).toMatchObject({ link: "/cases#monitoring" });
    const [event] = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "monitoring.alert_assign"), eq(auditEvents.target, (await alertRow(first)).publicId)));
    expect(event).toMatchObject({ actorId: null, details: expect.objectContaining({ auto: true, assignee: free.actor.email }) });
  });

  it("gives nothing when the team's auto-assignment is off: the leads are told instead", async () => {
    const member = await makeStaff(handle.db, "analyst");
    const lead = await makeStaff(handle.db, "analyst");
    const { queueId } = await configure([{ userId: member.actor.id }, { userId: lead.actor.id, lead: true }], { autoAssign: false });
    const id = await openAlert("pep", queueId);
    expect(await dispatchOpenedAlerts(handle.db, [id], T0)).toEqual([]);
    await dispatchOpenedAlerts(handle.db, [id], T0);
    expect(await told("monitoring_alert_waiting", lead.actor.id)).toHaveLength(1);
    expect(await told("monitoring_alert_waiting", member.actor.id)).toHaveLength(0);
  });

  it("a lead gives an alert to a member, who is told; an analyst may only take", async () => {
    const lead = await makeStaff(handle.db, "admin");
    const [analyst, other] = [await makeStaff(handle.db, "analyst"), await makeStaff(handle.db, "analyst")];
    const id = await openAlert();
    const refused = await assignAlert(handle.db, analyst, "primary", id, other.actor.id).catch((error: unknown) => error);
    expect((refused as AppError).code).toBe("forbidden");
    await assignAlert(handle.db, lead, "primary", id, analyst.actor.id, T0);
    expect((await alertRow(id)).assigneeId).toBe(analyst.actor.id);
    expect(await told("monitoring_alert_assigned", analyst.actor.id)).toHaveLength(1);
    const unknown = await assignAlert(handle.db, lead, "primary", id, randomUUID()).catch((error: unknown) => error);
    expect((unknown as AppError).fields).toEqual(["assignee"]);
  });

  it("keeps a note sealed on the alert's case, its length on the trail; re-sealed by the job, erased by an erasure", async () => {
    const SUBJECT = "52998224725";
    const publicId = await approvedCase(SUBJECT);
    const id = await openAlert("pep", DEFAULT_QUEUE_ID, publicId);
    const [holder, stranger] = [await makeStaff(handle.db, "analyst"), await makeStaff(handle.db, "analyst")];
    await assignAlert(handle.db, holder, "primary", id, "me");
    const words = "Checked the PEP registry: cousin of a mayor";

    const refused = await addAlertNote(handle.db, stranger, "primary", id, words).catch((error: unknown) => error);
    expect((refused as AppError).code).toBe("forbidden");
    await addAlertNote(handle.db, holder, "primary", id, words);
    const [entry] = await handle.db.select().from(caseEntries).where(eq(caseEntries.kind, "monitoring_note"));
    expect(entry).toMatchObject({ actorId: holder.actor.id, details: { alertId: id } });
    expect(entry!.text).not.toContain("mayor");
    expect(openCaseText("entry", entry!.text, "retired").text).toBe(words);
    expect((await listAlertNotes(handle.db, "primary", id)).notes).toEqual([
      expect.objectContaining({ text: words, author: { id: holder.actor.id, name: "analyst" }, redacted: false }),
    ]);
    const trail = await handle.db.select().from(auditEvents).where(eq(auditEvents.action, "monitoring.alert_note_add"));
    expect(trail.map((event) => event.details)).toEqual([{ change: "pep", length: words.length }]);
    const anywhere = await handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(sql`${auditEvents.details}::text like '%mayor%'`);
    expect(anywhere[0]!.n).toBe(0);

    // A rotation: the re-seal job moves the note to the new key, and it still opens.
    stubConfigEnv({
      DATA_ENCRYPTION_SECRET: `2026-12:rotated-data-encryption-secret-0123456789abcdef,1:${TEST_SECRETS.DATA_ENCRYPTION_SECRET}`,
    });
    await resealCaseTexts(handle.db, { holder: "instance-a" });
    const [resealed] = await handle.db.select().from(caseEntries).where(eq(caseEntries.id, entry!.id));
    expect(sealedTextKeyId(resealed!.text!)).toBe("2026-12");
    expect((await listAlertNotes(handle.db, "primary", id)).notes[0]!.text).toBe(words);

    // A titular's erasure: the note becomes a tombstone, with the case's other texts.
    const [asker, confirmer] = [await makeStaff(handle.db, "admin"), await makeStaff(handle.db, "admin")];
    const erasure = await requestErasure(handle.db, asker, { cpf: SUBJECT, reason: "Titular asked" });
    await confirmErasure(handle.db, confirmer, erasure.id);
    expect((await listAlertNotes(handle.db, "primary", id)).notes).toEqual([expect.objectContaining({ text: null, redacted: true })]);
  });

  it("never pushes a member past the capacity nor assigns one alert twice when two passes race", async () => {
    if (!handle.url) return; // a race needs two connections: PostgreSQL
    const member = await makeStaff(handle.db, "analyst");
    const { queueId } = await configure([{ userId: member.actor.id }], { capacity: 1 });
    const [one, two] = [await openAlert("pep", queueId), await openAlert("pep", queueId)];
    const other = await createDatabase({ url: handle.url });
    try {
      const [a, b] = await Promise.all([dispatchOpenedAlerts(handle.db, [one, two], T0), dispatchOpenedAlerts(other.db, [two, one], T0)]);
      expect(a.length + b.length).toBe(1);
      const held = await handle.db
        .select()
        .from(monitoringAlerts)
        .where(and(inArray(monitoringAlerts.id, [one, two]), eq(monitoringAlerts.assigneeId, member.actor.id)));
      expect(held).toHaveLength(1);
      const targets = [(await alertRow(one)).publicId, (await alertRow(two)).publicId];
      const events = await handle.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "monitoring.alert_assign"), inArray(auditEvents.target, targets)));
      expect(events).toHaveLength(1);
      expect(await told("monitoring_alert_assigned", member.actor.id)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

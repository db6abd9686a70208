import { randomUUID } from "node:crypto";

import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { httpStatusOf } from "@/lib/api/errors";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { staffUsers } from "@/lib/auth/server/tables";
import { caseEntries, caseQueues, cases, DEFAULT_QUEUE_ID } from "@/lib/cases/server/tables";
import { createDatabase } from "@/lib/db/client";
import { notifications } from "@/lib/notifications/server/tables";
import type { AppError } from "@/lib/shared/errors";
import { makeStaff, makeVerification, TEST_SETTINGS } from "@/test/cases";
import { describeEachDatabase, stubTestEnvironment, type TestDatabase } from "@/test/db";
import { routingHelpers } from "@/test/routing";

import { assignCase } from "./assignment";
import { autoAssign } from "./auto-assign";
import { bulkCases } from "./bulk";
import { type CaseContext } from "./context";
import { listQueue } from "./queue";
import { readRouting, replaceRouting } from "./routing";
import { applyObservations, observe } from "./store";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

const QUEUE = { queue: "open", sort: "age", page: 1, per_page: 200 } as const;

describeEachDatabase("case routing and auto-assignment on $name", ({ open }) => {
  let handle: TestDatabase;
  let admin: CaseContext;
  beforeAll(async () => {
    handle = await open();
    admin = await makeStaff(handle.db, "admin");
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  const { openCase, caseRow, configure } = routingHelpers(
    () => handle.db,
    () => admin,
  );

  it("replaces the configuration whole, retires queues left out, keeps the default one, and audits it", async () => {
    const lead = await makeStaff(handle.db, "reviewer");
    const queueId = await configure([{ userId: lead.actor.id, lead: true }], { autoAssign: false });
    const routing = await readRouting(handle.db);
    expect(routing.autoAssign).toBe(false);
    expect(routing.queues.map((queue) => queue.id)).toEqual([DEFAULT_QUEUE_ID, queueId]);
    expect(routing.queues[1]!.members).toEqual([{ userId: lead.actor.id, lead: true }]);
    expect(routing.rules.map((rule) => rule.queueId)).toEqual([queueId]);
    const pep = await openCase({ pepOrigin: "Prefeito" });
    expect((await caseRow(pep)).queueId).toBe(queueId);
    // Left out: retired (not deleted), its open cases back in the default queue, its rules gone.
    await replaceRouting(handle.db, admin, {
      autoAssign: false,
      capacity: 2,
      queues: [{ id: DEFAULT_QUEUE_ID, name: "General", members: [] }],
      rules: [],
    });
    const [retired] = await handle.db.select().from(caseQueues).where(eq(caseQueues.id, queueId));
    expect(retired?.retiredAt).not.toBeNull();
    expect((await caseRow(pep)).queueId).toBe(DEFAULT_QUEUE_ID);
    expect((await readRouting(handle.db)).rules).toEqual([]);
    const noDefault = replaceRouting(handle.db, admin, {
      autoAssign: false,
      capacity: 2,
      queues: [{ id: queueId, name: "Only", members: [] }],
      rules: [],
    });
    await expect(noDefault).rejects.toMatchObject({ code: "validation", fields: ["queues"] });
    const unknown = replaceRouting(handle.db, admin, {
      autoAssign: false,
      capacity: 2,
      queues: [{ id: DEFAULT_QUEUE_ID, name: "General", members: [{ userId: randomUUID(), lead: false }] }],
      rules: [],
    });
    await expect(unknown).rejects.toMatchObject({ fields: ["queues.0.members.0.userId"] });
    const trail = await handle.db.select().from(auditEvents).where(eq(auditEvents.action, "case.routing_change"));
    expect(trail.length).toBeGreaterThanOrEqual(2);
  });

  it("routes a new case by the first matching rule, else the default queue; the queue page filters by queue", async () => {
    const queueId = await configure([], { autoAssign: false, rules: [] });
    const other = randomUUID();
    await replaceRouting(handle.db, admin, {
      autoAssign: false,
      capacity: 2,
      queues: [
        { id: DEFAULT_QUEUE_ID, name: "General", members: [] },
        { id: queueId, name: "Risky", members: [] },
        { id: other, name: "Face index", members: [] },
      ],
      rules: [
        { queueId, conditions: { minRisk: 80 } },
        { queueId: other, conditions: { flows: ["kyc-faceindex"] } },
      ],
    });
    const risky = await openCase({ riskScore: 85, flow: "kyc-faceindex" });
    const faceIndex = await openCase({ riskScore: 10, flow: "kyc-faceindex" });
    const plain = await openCase({ riskScore: 10, flow: "kyc" });
    expect([(await caseRow(risky)).queueId, (await caseRow(faceIndex)).queueId, (await caseRow(plain)).queueId]).toEqual([
      queueId,
      other,
      DEFAULT_QUEUE_ID,
    ]);
    const listed = await listQueue(handle.db, "primary", { ...QUEUE, queue_id: other }, admin.actor);
    expect(listed.items.map((item) => item.publicId)).toEqual([faceIndex]);
    expect(listed.queues?.map((queue) => queue.name)).toEqual(["General", "Face index", "Risky"]);
  });

  it("auto-assigns to the member with the fewest open cases under the capacity, skipping away and disabled ones", async () => {
    const [busy, free, away, disabled] = await Promise.all(
      ["reviewer", "reviewer", "reviewer", "reviewer"].map((role) => makeStaff(handle.db, role as "reviewer")),
    );
    await handle.db.update(staffUsers).set({ away: true }).where(eq(staffUsers.id, away!.actor.id));
    await handle.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, disabled!.actor.id));
    await configure(
      [busy!, free!, away!, disabled!].map((staff) => ({ userId: staff.actor.id })),
      { capacity: 2 },
    );
    const held = await openCase();
    await assignCase(handle.db, busy!, held, "me"); // the default queue: not auto-assigned there (no members)
    const first = await openCase({ pepOrigin: "Prefeito" });
    expect((await caseRow(first)).assigneeId).toBe(free!.actor.id); // fewer open cases than busy
    const second = await openCase({ pepOrigin: "Prefeito" });
    const third = await openCase({ pepOrigin: "Prefeito" });
    const fourth = await openCase({ pepOrigin: "Prefeito" });
    const owners = await Promise.all([second, third, fourth].map(async (id) => (await caseRow(id)).assigneeId));
    // Capacity 2: free takes one more, busy one more (2 each), the fourth waits unassigned.
    expect(owners.filter((owner) => owner === free!.actor.id)).toHaveLength(1);
    expect(owners.filter((owner) => owner === busy!.actor.id)).toHaveLength(1);
    expect(owners.filter((owner) => owner === null)).toHaveLength(1);
    expect(owners).not.toContain(away!.actor.id);
    expect(owners).not.toContain(disabled!.actor.id);
    const [entry] = await handle.db
      .select()
      .from(caseEntries)
      .where(eq(caseEntries.caseId, (await caseRow(first)).id))
      .orderBy(caseEntries.id)
      .offset(1);
    expect(entry).toMatchObject({ kind: "assigned", actorId: null, details: { assigneeId: free!.actor.id, auto: true } });
    // The member is told, once per assignment, with the case id only.
    const told = await handle.db.select().from(notifications).where(eq(notifications.userId, free!.actor.id));
    expect(told.filter((row) => row.kind === "case_assigned").map((row) => row.casePublicId)).toEqual(expect.arrayContaining([first]));
  });

  it("stays off by default and when turned off", async () => {
    const member = await makeStaff(handle.db, "reviewer");
    await configure([{ userId: member.actor.id }], { autoAssign: false });
    expect((await caseRow(await openCase({ pepOrigin: "Prefeito" }))).assigneeId).toBeNull();
  });

  it("two instances racing assign a case once and never pass the capacity", async () => {
    const member = await makeStaff(handle.db, "reviewer");
    const queueId = await configure([{ userId: member.actor.id }], { capacity: 1, autoAssign: false });
    const one = await openCase({ pepOrigin: "Prefeito" });
    const two = await openCase({ pepOrigin: "Prefeito" });
    await replaceRouting(handle.db, admin, {
      autoAssign: true,
      capacity: 1,
      queues: [
        { id: DEFAULT_QUEUE_ID, name: "General", members: [] },
        { id: queueId, name: "Race", members: [{ userId: member.actor.id, lead: false }] },
      ],
      rules: [],
    });
    const other = handle.url ? await createDatabase({ url: handle.url }) : null;
    try {
      const second = other?.db ?? handle.db;
      const [a, b] = await Promise.all([autoAssign(handle.db, [one]), autoAssign(second, [one])]);
      expect(a.length + b.length).toBe(1);
      const entries = await handle.db
        .select()
        .from(caseEntries)
        .where(eq(caseEntries.caseId, (await caseRow(one)).id));
      expect(entries.filter((entry) => entry.kind === "assigned")).toHaveLength(1);
      // Capacity 1 is taken by `one`: a race on `two` from both sides assigns nothing.
      const [c, d] = await Promise.all([autoAssign(handle.db, [two]), autoAssign(second, [two])]);
      expect(c.length + d.length).toBe(0);
      // Freed: two racing callers for two cases, capacity 1 → exactly one assigned.
      await assignCase(handle.db, admin, one, null);
      const [e, f] = await Promise.all([autoAssign(handle.db, [one, two]), autoAssign(second, [two, one])]);
      expect(e.length + f.length).toBe(1);
      const held = await handle.db.select().from(cases).where(eq(cases.assigneeId, member.actor.id));
      expect(held.filter((row) => row.status === "open")).toHaveLength(1);
    } finally {
      await other?.close();
    }
  });

  it("bulk: each case on its own, audited as alone; one refused while the others succeed", async () => {
    await configure([], { autoAssign: false });
    const analyst = await makeStaff(handle.db, "analyst");
    const member = await makeStaff(handle.db, "reviewer");
    const [a, b, closed] = [await openCase(), await openCase(), await openCase()];
    const verification = makeVerification({ publicId: closed, status: "approved" });
    await applyObservations(handle.db, [observe(verification, TEST_SETTINGS)], TEST_SETTINGS);
    const assigned = await bulkCases(handle.db, admin, { action: "assign", publicIds: [a, closed, b], assignee: member.actor.id });
    expect(assigned.results).toEqual([
      { publicId: a, ok: true },
      { publicId: closed, ok: false, code: "conflict", error: "This case is closed." },
      { publicId: b, ok: true },
    ]);
    const trail = await handle.db
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.target, [a, b, closed]));
    expect(trail.filter((event) => event.action === "case.assign").map((event) => [event.target, event.outcome])).toEqual(
      expect.arrayContaining([
        [a, "success"],
        [b, "success"],
        [closed, "failure"],
      ]),
    );
    // An analyst unassigns their own case, not someone else's; assign and move need cases.assign.
    await assignCase(handle.db, admin, a, analyst.actor.id);
    const unassigned = await bulkCases(handle.db, analyst, { action: "unassign", publicIds: [a, b] });
    expect(unassigned.results.map((result) => [result.publicId, result.ok, result.code])).toEqual([
      [a, true, undefined],
      [b, false, "forbidden"],
    ]);
    const refused = bulkCases(handle.db, analyst, { action: "move", publicIds: [a], queue: DEFAULT_QUEUE_ID });
    await expect(refused).rejects.toSatisfy((error: AppError) => httpStatusOf(error) === 403);
    const target = randomUUID();
    await replaceRouting(handle.db, admin, {
      autoAssign: false,
      capacity: 2,
      queues: [
        { id: DEFAULT_QUEUE_ID, name: "General", members: [] },
        { id: target, name: "Moved here", members: [] },
      ],
      rules: [],
    });
    const moved = await bulkCases(handle.db, admin, { action: "move", publicIds: [a, closed], queue: target });
    expect(moved.results.map((result) => result.ok)).toEqual([true, false]);
    expect((await caseRow(a)).queueId).toBe(target);
    await expect(bulkCases(handle.db, admin, { action: "move", publicIds: [a], queue: randomUUID() })).rejects.toMatchObject({
      fields: ["queue"],
    });
  });
});

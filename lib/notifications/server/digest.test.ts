import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { assignCase } from "@/lib/cases/server/assignment";
import { escalateOverdueCases } from "@/lib/cases/server/escalation";
import { recordOutcome } from "@/lib/cases/server/outcome";
import { sendOverdueDigests } from "@/lib/cases/server/overdue-digest";
import { caseQueueMembers, caseQueues, cases, verificationIndex } from "@/lib/cases/server/tables";
import { makeStaff } from "@/test/cases";
import { describeEachDatabase, withTestEnvironment, type TestDatabase } from "@/test/db";

import { digestPeriod } from "./digest";
import { markCasesHandled } from "./handled";
import { listNotifications } from "./inbox";
import { messageFor } from "./messages";
import { notify } from "./notify";
import { notificationCases, notifications } from "./tables";

withTestEnvironment();

const HOUR = 3_600_000;

describe("messages", () => {
  it("names the case by its ref_id (the short public id without one), says what happened, and links to it", () => {
    const publicId = "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10";
    const message = messageFor("confirmation_waiting", { casePublicId: publicId, caseRef: "REF-123" }, "https://kyc.example.net");
    expect(message.subject).toBe("Caso REF-123: recomendação a confirmar / Case REF-123: recommendation to confirm");
    expect(message.body).toContain(`https://kyc.example.net/verifications/${publicId}`);
    expect(messageFor("case_assigned", { casePublicId: publicId, caseRef: null }, undefined).subject).toContain(
      "Case 0b9a4c1e: assigned to you",
    );
    const digest = messageFor(
      "overdue_digest",
      { casePublicId: "", count: 12, link: "/cases?queue=mine&overdue=true" },
      "https://kyc.example.net",
    );
    expect(digest.subject).toContain("12 cases overdue in your queue");
    expect(digest.body).toContain("https://kyc.example.net/cases?queue=mine&overdue=true");
  });
});

describe("the digest's period", () => {
  it("is the hour a time falls in, so two runs in one hour share a digest and the next hour makes another", () => {
    expect(digestPeriod(new Date("2026-11-29T10:00:00.000Z"))).toBe("2026-11-29T10:00:00.000Z");
    expect(digestPeriod(new Date("2026-11-29T10:59:59.999Z"))).toBe("2026-11-29T10:00:00.000Z");
    expect(digestPeriod(new Date("2026-11-29T11:00:00.000Z"))).toBe("2026-11-29T11:00:00.000Z");
  });
});

describeEachDatabase("overdue digests on $name", ({ open }) => {
  let handle: TestDatabase;
  let sequence = 0;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  /** A queue of its own with a lead, so each test's members hear only of its own cases. */
  async function team() {
    sequence += 1;
    const [queue] = await handle.db
      .insert(caseQueues)
      .values({ name: `digest team ${sequence} ${Math.random()}` })
      .returning({ id: caseQueues.id });
    const lead = await makeStaff(handle.db, "analyst");
    const analyst = await makeStaff(handle.db, "analyst");
    await handle.db.insert(caseQueueMembers).values([
      { queueId: queue!.id, userId: lead.actor.id, lead: true },
      { queueId: queue!.id, userId: analyst.actor.id, lead: false },
    ]);
    return { queueId: queue!.id, lead, analyst };
  }

  /** A case of the queue, past its due time by default, with a ref_id in the search index. */
  async function openCase(queueId: string, { assignee = null as string | null, dueAt = new Date(Date.now() - HOUR) } = {}) {
    sequence += 1;
    const publicId = `0b9a4c1e-5d2f-4e8a-9c71-${String(sequence).padStart(12, "0")}-${Math.random().toString(36).slice(2, 6)}`;
    await handle.db
      .insert(cases)
      .values({ publicId, upstreamStatus: "review", dueAt, queueId, assigneeId: assignee, assignedAt: assignee ? new Date() : null });
    await handle.db.insert(verificationIndex).values({ publicId, refId: `REF-${sequence}` });
    return publicId;
  }

  async function digestsOf(userId: string) {
    const rows = await handle.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.kind, "overdue_digest")));
    return Promise.all(
      rows.map(async (row) => ({
        ...row,
        cases: (await handle.db.select().from(notificationCases).where(eq(notificationCases.notificationId, row.id)))
          .map((item) => item.casePublicId)
          .sort(),
      })),
    );
  }

  it("a first start with many overdue cases makes one digest per member, linking to their queue filtered to overdue", async () => {
    const { queueId, lead, analyst } = await team();
    const mine = [await openCase(queueId, { assignee: analyst.actor.id }), await openCase(queueId, { assignee: analyst.actor.id })];
    const others = [await openCase(queueId), await openCase(queueId), await openCase(queueId)];
    const onTime = await openCase(queueId, { dueAt: new Date(Date.now() + HOUR) });
    const now = new Date();
    await escalateOverdueCases(handle.db, { holder: "first-start", now });

    const leads = await digestsOf(lead.actor.id);
    expect(leads).toHaveLength(1);
    expect(leads[0]!.cases).toEqual([...mine, ...others].sort());
    expect(leads[0]!.link).toBe(`/cases?queue=open&overdue=true&queue_id=${queueId}`);
    const analysts = await digestsOf(analyst.actor.id);
    expect(analysts.map((row) => row.cases)).toEqual([[...mine].sort()]);
    expect(analysts[0]!.link).toBe("/cases?queue=mine&overdue=true");
    expect(leads[0]!.cases).not.toContain(onTime);
    // Nothing one case at a time.
    const perCase = await handle.db.select().from(notifications).where(eq(notifications.kind, "case_overdue"));
    expect(perCase).toEqual([]);

    const inbox = await listNotifications(handle.db, lead.actor.id, null);
    expect(inbox.unread).toBe(1);
    expect(inbox.items[0]).toMatchObject({ kind: "overdue_digest", cases: 5, read: false, href: `/c/primary${leads[0]!.link}` });
    // The next run in the same hour, nothing new: nothing told.
    await escalateOverdueCases(handle.db, { holder: "first-start", now: new Date(now.getTime() + 60_000) });
    expect(await digestsOf(lead.actor.id)).toHaveLength(1);
  });

  it("news in the same period joins its digest; news in the next makes one new digest that replaces the old; no news, nothing", async () => {
    const { queueId, lead } = await team();
    const first = await openCase(queueId);
    const now = new Date();
    await sendOverdueDigests(handle.db, now);
    await handle.db.update(notifications).set({ readAt: new Date() }).where(eq(notifications.userId, lead.actor.id));

    const second = await openCase(queueId);
    await sendOverdueDigests(handle.db, new Date(now.getTime() + 1_000));
    let digests = await digestsOf(lead.actor.id);
    expect(digests.map((row) => [row.cases, row.readAt])).toEqual([[[first, second].sort(), null]]);

    const third = await openCase(queueId);
    const later = new Date(now.getTime() + HOUR);
    await sendOverdueDigests(handle.db, later);
    digests = await digestsOf(lead.actor.id);
    expect(digests).toHaveLength(2);
    const [older, newer] = digests.sort((a, b) => a.id - b.id);
    expect(older!.readAt).not.toBeNull();
    expect(newer!.cases).toEqual([first, second, third].sort());
    expect(newer!.readAt).toBeNull();
    await sendOverdueDigests(handle.db, new Date(later.getTime() + HOUR));
    expect(await digestsOf(lead.actor.id)).toHaveLength(2);
  });

  it("a case handled counts the digest down, and the digest is read when none is left; reassigned away, opened, closed", async () => {
    const { queueId, lead, analyst } = await team();
    const other = await makeStaff(handle.db, "admin");
    const [recorded, reassigned, opened] = [
      await openCase(queueId, { assignee: analyst.actor.id }),
      await openCase(queueId, { assignee: analyst.actor.id }),
      await openCase(queueId, { assignee: analyst.actor.id }),
    ];
    await sendOverdueDigests(handle.db, new Date());
    const digestOf = async (userId: string) =>
      (await listNotifications(handle.db, userId, null)).items.find((item) => item.kind === "overdue_digest")!;
    expect(await digestOf(analyst.actor.id)).toMatchObject({ cases: 3, read: false });

    // A recommendation recorded: handled for everyone told of it (the lead's digest too).
    await recordOutcome(handle.db, analyst, recorded, {
      recommendation: "reprove",
      reasons: ["document_mismatch"],
      comment: "Name differs.",
    });
    expect(await digestOf(analyst.actor.id)).toMatchObject({ cases: 2, read: false });
    expect(await digestOf(lead.actor.id)).toMatchObject({ cases: 2 });

    // Reassigned away: handled for the analyst only; the member it goes to is told, by the case's ref_id.
    await assignCase(handle.db, other, reassigned, lead.actor.id);
    expect(await digestOf(analyst.actor.id)).toMatchObject({ cases: 1 });
    expect(await digestOf(lead.actor.id)).toMatchObject({ cases: 2 });
    const told = (await listNotifications(handle.db, lead.actor.id, null)).items.find((item) => item.kind === "case_assigned")!;
    const [indexed] = await handle.db.select().from(verificationIndex).where(eq(verificationIndex.publicId, reassigned));
    expect(told).toMatchObject({
      casePublicId: reassigned,
      caseRef: indexed!.refId,
      read: false,
      href: `/c/primary/verifications/${reassigned}`,
    });

    // Opened by the analyst (GET /api/cases/{id}): their last case is handled for them, the digest read.
    await markCasesHandled(handle.db, [opened], { userId: analyst.actor.id });
    expect(await digestOf(analyst.actor.id)).toMatchObject({ cases: 0, read: true });
    expect(await digestOf(lead.actor.id)).toMatchObject({ cases: 2, read: false });

    // Closed by the service's final status (no case action): the job's sweep reads what is left.
    await notify(handle.db, { userIds: [lead.actor.id], kind: "mention", casePublicId: opened, dedupeKey: "note-1" });
    await handle.db.update(cases).set({ status: "closed", closedAt: new Date() }).where(eq(cases.queueId, queueId));
    await escalateOverdueCases(handle.db, { holder: "sweeper" });
    const after = await listNotifications(handle.db, lead.actor.id, null);
    expect(after.items.filter((item) => !item.read)).toEqual([]);
    expect(after.items.find((item) => item.kind === "overdue_digest")).toMatchObject({ cases: 0, read: true });
  });

  it("two instances running the job at once make one digest per member, covering each case once", async () => {
    const { queueId, lead, analyst } = await team();
    const made: string[] = [];
    for (let index = 0; index < 6; index += 1) made.push(await openCase(queueId, { assignee: index % 2 ? analyst.actor.id : null }));
    const now = new Date();
    // Two instances' scheduled runs (each its own lease holder), and two runs past the lease, at the same moment.
    await Promise.all([
      escalateOverdueCases(handle.db, { holder: "instance-a", now }),
      escalateOverdueCases(handle.db, { holder: "instance-b", now }),
      sendOverdueDigests(handle.db, now),
      sendOverdueDigests(handle.db, now),
    ]);
    const leads = await digestsOf(lead.actor.id);
    expect(leads.map((row) => row.cases)).toEqual([[...made].sort()]);
    const analysts = await digestsOf(analyst.actor.id);
    expect(analysts.map((row) => row.cases)).toEqual([made.filter((_, index) => index % 2).sort()]);
  });
});

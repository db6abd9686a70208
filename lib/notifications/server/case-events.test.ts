import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

import { staffUsers } from "@/lib/auth/server/tables";
import { assignCase } from "@/lib/cases/server/assignment";
import type { CaseContext } from "@/lib/cases/server/context";
import { confirmOutcome, recordOutcome } from "@/lib/cases/server/outcome";
import { caseQueueMembers, caseQueues, cases, verificationIndex } from "@/lib/cases/server/tables";
import type { NotificationKind } from "@/lib/notifications/types";
import { makeStaff } from "@/test/cases";
import { describeEachDatabase, withTestEnvironment, type TestDatabase } from "@/test/db";

import { markCasesHandled } from "./handled";
import { listNotifications } from "./inbox";
import { messageFor } from "./messages";
import { notifications } from "./tables";

/*
 * The notifications an analyst gets of what others did to their work (issue 32): the member who recommended hears
 * that a second member confirmed it or overruled it, and a case a member escalates is told to its queue's leads
 * (the members who assign cases when the queue has none). Each once, to the right member only, never to the member
 * who acted, naming the case by its ref_id and who acted; read when the case is handled for them.
 */

withTestEnvironment();

describeEachDatabase("case event notifications on $name", ({ open }) => {
  let handle: TestDatabase;
  let sequence = 0;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  async function named(context: CaseContext, name: string): Promise<CaseContext> {
    await handle.db.update(staffUsers).set({ name }).where(eq(staffUsers.id, context.actor.id));
    return context;
  }

  /** A queue of its own, with a lead when asked, so each test's members hear only of its own cases. */
  async function queue({ lead }: { lead: CaseContext | null }) {
    sequence += 1;
    const [row] = await handle.db
      .insert(caseQueues)
      .values({ name: `events ${sequence} ${Math.random()}` })
      .returning({ id: caseQueues.id });
    if (lead) await handle.db.insert(caseQueueMembers).values({ queueId: row!.id, userId: lead.actor.id, lead: true });
    return row!.id;
  }

  /** A case in review in the queue, held by `assignee`, with a ref_id in the search index. */
  async function openCase(queueId: string, assignee: CaseContext) {
    sequence += 1;
    const publicId = `5e0d2a7c-1b3f-4c8d-9e61-${String(sequence).padStart(12, "0")}-${Math.random().toString(36).slice(2, 6)}`;
    const refId = `REF-EV-${sequence}`;
    await handle.db.insert(cases).values({ publicId, upstreamStatus: "review", dueAt: new Date(Date.now() + 3_600_000), queueId });
    await handle.db.insert(verificationIndex).values({ publicId, refId });
    await assignCase(handle.db, assignee, publicId, "me");
    return { publicId, refId };
  }

  /** Every notification of these kinds about the case, whoever it was for. */
  const toldOf = (publicId: string, kinds: NotificationKind[]) =>
    handle.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.casePublicId, publicId), inArray(notifications.kind, kinds)));

  const SETTLED: NotificationKind[] = ["outcome_confirmed", "outcome_rejected"];
  const reprove = { recommendation: "reprove" as const, reasons: ["document_mismatch" as const], comment: "Birth date differs." };

  it("a confirmed recommendation tells the member who recommended, once, naming the case's ref and the confirmer", async () => {
    const author = await named(await makeStaff(handle.db, "analyst"), "Otavio Brandao");
    const confirmer = await named(await makeStaff(handle.db, "reviewer"), "Renata Quintela");
    const { publicId, refId } = await openCase(await queue({ lead: null }), author);
    expect(await recordOutcome(handle.db, author, publicId, reprove)).toEqual({ outcomeState: "pending_confirmation" });
    expect(await confirmOutcome(handle.db, confirmer, publicId, { agree: true, comment: "" })).toEqual({ outcomeState: "confirmed" });

    const told = await toldOf(publicId, SETTLED);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      userId: author.actor.id,
      kind: "outcome_confirmed",
      caseRef: refId,
      actorId: confirmer.actor.id,
      readAt: null,
    });
    // What the bell reads: the case's ref and who confirmed.
    const [item] = (await listNotifications(handle.db, author.actor.id, null)).items.filter((entry) => entry.casePublicId === publicId);
    expect(item).toMatchObject({ kind: "outcome_confirmed", caseRef: refId, actorName: "Renata Quintela", read: false });
    // The confirmer hears nothing of their own act; what they were told ("to confirm") is read now it is handled.
    const confirmerItems = (await listNotifications(handle.db, confirmer.actor.id, null)).items.filter(
      (entry) => entry.casePublicId === publicId,
    );
    expect(confirmerItems.map((entry) => [entry.kind, entry.read])).toEqual([["confirmation_waiting", true]]);

    // Read when handled: the author opening the case (GET /api/cases/{id} marks it for the reader).
    await markCasesHandled(handle.db, [publicId], { userId: author.actor.id });
    expect((await toldOf(publicId, SETTLED))[0]!.readAt).not.toBeNull();
  });

  it("an overruled recommendation tells its author that it was, by whom; the message sent out names nobody", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const confirmer = await named(await makeStaff(handle.db, "reviewer"), "Bianca Teles");
    const { publicId, refId } = await openCase(await queue({ lead: null }), author);
    await recordOutcome(handle.db, author, publicId, reprove);
    expect(await confirmOutcome(handle.db, confirmer, publicId, { agree: false, comment: "The dates match." })).toEqual({
      outcomeState: "rejected",
    });
    const told = await toldOf(publicId, SETTLED);
    expect(told.map((row) => [row.userId, row.kind, row.caseRef, row.actorId])).toEqual([
      [author.actor.id, "outcome_rejected", refId, confirmer.actor.id],
    ]);
    const [item] = (await listNotifications(handle.db, author.actor.id, null)).items.filter((entry) => entry.casePublicId === publicId);
    expect(item).toMatchObject({ kind: "outcome_rejected", actorName: "Bianca Teles" });
    // Email and chat name the case and what happened, never a member (the chat channel is shared).
    const message = messageFor("outcome_rejected", { casePublicId: publicId, caseRef: refId }, "https://kyc.example.net");
    expect(message.subject).toBe(`Caso ${refId}: sua recomendação foi rejeitada / Case ${refId}: your recommendation was overruled`);
    expect(JSON.stringify(message)).not.toContain("Bianca");
  });

  it("an escalation tells the case's queue lead once, naming the case's ref and who escalated, never the member who did", async () => {
    const lead = await named(await makeStaff(handle.db, "reviewer"), "Lia Moraes");
    const member = await named(await makeStaff(handle.db, "analyst"), "Caio Prado");
    const queueId = await queue({ lead });
    const { publicId, refId } = await openCase(queueId, member);
    const escalate = { recommendation: "escalate" as const, reasons: ["other" as const], comment: "Needs a senior." };
    expect(await recordOutcome(handle.db, member, publicId, escalate)).toEqual({ outcomeState: "recorded" });

    const told = await toldOf(publicId, ["case_escalated"]);
    expect(told.map((row) => [row.userId, row.caseRef, row.actorId])).toEqual([[lead.actor.id, refId, member.actor.id]]);
    const [item] = (await listNotifications(handle.db, lead.actor.id, null)).items.filter((entry) => entry.casePublicId === publicId);
    expect(item).toMatchObject({ kind: "case_escalated", caseRef: refId, actorName: "Caio Prado", read: false });
    expect((await listNotifications(handle.db, member.actor.id, null)).items.filter((entry) => entry.casePublicId === publicId)).toEqual(
      [],
    );

    // Read when handled: the lead takes it up and decides it.
    await assignCase(handle.db, lead, publicId, "me");
    await recordOutcome(handle.db, lead, publicId, reprove);
    expect((await toldOf(publicId, ["case_escalated"]))[0]!.readAt).not.toBeNull();
  });

  it("with no lead in the queue, an escalation tells the members who assign cases, the one who escalated excepted", async () => {
    const assigner = await makeStaff(handle.db, "reviewer");
    // A member who assigns cases escalates one of their own: everyone else who assigns is told, not them.
    const escalating = await named(await makeStaff(handle.db, "reviewer"), "Rui Falcao");
    const analyst = await makeStaff(handle.db, "analyst");
    const { publicId } = await openCase(await queue({ lead: null }), escalating);
    await recordOutcome(handle.db, escalating, publicId, { recommendation: "escalate", reasons: ["other"], comment: "" });
    const told = (await toldOf(publicId, ["case_escalated"])).map((row) => row.userId);
    expect(told).toContain(assigner.actor.id);
    expect(told).not.toContain(escalating.actor.id);
    expect(told).not.toContain(analyst.actor.id);
    expect(new Set(told).size).toBe(told.length);
  });
});

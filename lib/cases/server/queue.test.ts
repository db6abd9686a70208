import { sql } from "drizzle-orm";
import { expect, it } from "vitest";

import { cpfHash } from "@/lib/audit-trail/server";
import { QUEUES, stageOf } from "@/lib/cases/rules";
import { caseSuite, OPEN_QUEUE } from "@/test/case-suite";
import { makeStaff, TEST_SETTINGS } from "@/test/cases";
import { describeEachDatabase } from "@/test/db";

import { assignCase } from "./assignment";
import { getCase } from "./detail";
import { confirmOutcome, recordOutcome } from "./outcome";
import { listQueue } from "./queue";
import { indexVerifications, searchVerifications } from "./search";
import { applyObservations, observe } from "./store";

/*
 * Finding cases: the search, the queues with their counts, filters and sorts, where an outcome moves a case,
 * and a case's next and previous.
 */

describeEachDatabase("the case queue on $name", ({ name, open }) => {
  const { handle, openCase } = caseSuite({ open });

  it("search by ref_id and by CPF (keyed hash; the CPF is never stored)", async () => {
    const cpf = "390.533.447-05";
    const publicId = `created-${name}-${Date.now()}`;
    await indexVerifications(handle.db, [{ publicId, refId: "order-77", cpf, createdHere: true }]);
    expect(await searchVerifications(handle.db, { cpf: "39053344705" }, "primary")).toEqual(
      expect.arrayContaining([{ publicId, refId: "order-77", documentMasked: "***.533.447-**", caseStatus: null }]),
    );
    expect((await searchVerifications(handle.db, { ref_id: "order-77" }, "primary")).map((hit) => hit.publicId)).toContain(publicId);
    expect(await searchVerifications(handle.db, { ref_id: "order-78" }, "primary")).toEqual([]);
    const stored = await handle.db.execute(sql`select * from verification_index where public_id = ${publicId}`);
    const text = JSON.stringify(stored);
    expect(text).not.toContain("39053344705");
    expect(text).not.toContain("390.533.447-05");
    expect(text).toContain(cpfHash(cpf));
  });

  it("the queue: tabs, counts, sorting by age, due time and priority, and flag filters", async () => {
    const me = await makeStaff(handle.db, "analyst");
    const older = await openCase();
    const urgent = await openCase({ restrictiveLists: [{ extra: {} }] });
    await assignCase(handle.db, me, older.publicId, "me");
    const mine = await listQueue(handle.db, "primary", { ...OPEN_QUEUE, queue: "mine" }, me.actor);
    expect(mine.items.map((item) => item.publicId)).toEqual([older.publicId]);
    expect(mine.items[0]?.assignee?.email).toBe(me.actor.email);
    expect(mine.counts.mine).toBe(1);
    const unassigned = await listQueue(handle.db, "primary", { ...OPEN_QUEUE, queue: "unassigned" }, me.actor);
    expect(unassigned.items.map((item) => item.publicId)).toContain(urgent.publicId);
    expect(unassigned.items.map((item) => item.publicId)).not.toContain(older.publicId);
    const byPriority = await listQueue(handle.db, "primary", { ...OPEN_QUEUE, sort: "priority" }, me.actor);
    const scores = byPriority.items.map((item) => item.priority.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(byPriority.items.find((item) => item.publicId === urgent.publicId)?.priority.reasons[0]).toEqual({
      kind: "flag",
      flag: "restrictive_list",
    });
    const byAge = await listQueue(handle.db, "primary", OPEN_QUEUE, me.actor);
    const ages = byAge.items.map((item) => item.openedAt);
    expect(ages).toEqual([...ages].sort());
    const flagged = await listQueue(handle.db, "primary", { ...OPEN_QUEUE, flag: "restrictive_list" }, me.actor);
    expect(flagged.items.every((item) => item.flags.includes("restrictive_list"))).toBe(true);
    expect(flagged.items.map((item) => item.publicId)).toContain(urgent.publicId);
    const detail = await getCase(handle.db, "primary", older.publicId);
    expect(detail?.next).not.toBeNull();
  });

  it("each row names its person: whole for a member holding personal_data.unmasked, masked for one without; the stored name is sealed", async () => {
    const analyst = await makeStaff(handle.db, "analyst");
    const viewer = await makeStaff(handle.db, "viewer");
    const named = await openCase({ person: { name: "Maria Aparecida da Silva" } });
    const serviceMasked = await openCase({ person: { name: "J*** S***" } });
    const nameless = await openCase();
    const rowsOf = async (who: typeof analyst) =>
      new Map((await listQueue(handle.db, "primary", OPEN_QUEUE, who.actor)).items.map((item) => [item.publicId, item.personName]));
    const full = await rowsOf(analyst);
    expect(full.get(named.publicId)).toBe("Maria Aparecida da Silva");
    expect(full.get(serviceMasked.publicId)).toBe("J*** S***");
    expect(full.get(nameless.publicId)).toBeNull();
    const masked = await rowsOf(viewer);
    expect(masked.get(named.publicId)).toBe("M*** A*** d*** S***");
    expect(masked.get(serviceMasked.publicId)).toBe("J*** S***");
    expect(masked.get(nameless.publicId)).toBeNull();
    expect(JSON.stringify(await listQueue(handle.db, "primary", OPEN_QUEUE, viewer.actor))).not.toMatch(/Maria|Aparecida|Silva/);
    // At rest only an envelope: no column of the case's row holds the words.
    const stored = await handle.db.execute(sql`select c::text as line from cases c where c.public_id = ${named.publicId}`);
    expect(JSON.stringify(stored)).not.toMatch(/Maria|Aparecida|Silva/);
  });

  it("outcomes move: an effective decision leaves Open for Decided, an escalation goes to Escalated with an owner, the provider closes", async () => {
    const analyst = await makeStaff(handle.db, "analyst");
    const second = await makeStaff(handle.db, "analyst");
    const admin = await makeStaff(handle.db, "admin");
    const queuesOf = async (publicId: string, who: typeof analyst) => {
      const found: string[] = [];
      for (const queue of QUEUES) {
        const list = await listQueue(handle.db, "primary", { ...OPEN_QUEUE, queue }, who.actor);
        if (list.items.some((item) => item.publicId === publicId)) found.push(queue);
      }
      return found;
    };
    const stage = async (publicId: string) => stageOf((await getCase(handle.db, "primary", publicId))!);

    // An approve needing no confirmation is effective at once: decided here, awaiting the provider.
    const approved = await openCase();
    await assignCase(handle.db, analyst, approved.publicId, "me");
    expect(await queuesOf(approved.publicId, analyst)).toEqual(["open", "mine"]);
    await recordOutcome(handle.db, analyst, approved.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" });
    expect(await queuesOf(approved.publicId, analyst)).toEqual(["decided"]);
    expect(await stage(approved.publicId)).toBe("decided");
    await applyObservations(handle.db, [observe({ ...approved, status: "approved" }, TEST_SETTINGS)], TEST_SETTINGS);
    expect(await queuesOf(approved.publicId, analyst)).toEqual(["closed"]);

    // A reprove waits for confirmation: out of its author's Open (done there), in Open for others, gone once confirmed.
    const reproved = await openCase();
    await assignCase(handle.db, analyst, reproved.publicId, "me");
    await recordOutcome(handle.db, analyst, reproved.publicId, {
      recommendation: "reprove",
      reasons: ["document_mismatch"],
      comment: "Dates differ.",
    });
    expect(await queuesOf(reproved.publicId, analyst)).toEqual(["mine", "confirming"]);
    expect(await queuesOf(reproved.publicId, admin)).toEqual(["open", "confirming"]);
    expect(await stage(reproved.publicId)).toBe("confirming");
    await confirmOutcome(handle.db, admin, reproved.publicId, { agree: true, comment: "" });
    expect(await queuesOf(reproved.publicId, analyst)).toEqual(["decided"]);

    // An escalation leaves its author's hands for the escalation queue; someone else takes it and decides.
    const escalated = await openCase({ pepOrigin: "Senador" });
    await assignCase(handle.db, analyst, escalated.publicId, "me");
    expect(
      await recordOutcome(handle.db, analyst, escalated.publicId, { recommendation: "escalate", reasons: ["pep_exposure"], comment: "" }),
    ).toEqual({
      outcomeState: "recorded",
    });
    expect(await queuesOf(escalated.publicId, analyst)).toEqual(["escalated"]);
    expect((await getCase(handle.db, "primary", escalated.publicId))!.assignee).toBeNull();
    await expect(assignCase(handle.db, analyst, escalated.publicId, "me")).rejects.toMatchObject({ code: "forbidden" });
    await assignCase(handle.db, second, escalated.publicId, "me");
    expect(await queuesOf(escalated.publicId, second)).toEqual(["mine", "escalated"]);
    expect(await stage(escalated.publicId)).toBe("escalated");
    // The owner's approve on a PEP case needs four eyes, then it is decided here.
    await recordOutcome(handle.db, second, escalated.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" });
    expect(await queuesOf(escalated.publicId, second)).toEqual(["mine", "confirming"]);
    await confirmOutcome(handle.db, analyst, escalated.publicId, { agree: true, comment: "" });
    expect(await queuesOf(escalated.publicId, second)).toEqual(["decided"]);
    expect((await getCase(handle.db, "primary", escalated.publicId))!.entries.map((entry) => entry.kind)).toEqual([
      "opened",
      "assigned",
      "outcome",
      "escalated",
      "assigned",
      "outcome",
      "confirmation",
    ]);
  });

  it("next and previous follow the queue the case was opened from: its filter and its sort", async () => {
    const hour = 3_600_000;
    const base = Date.now() - 1000 * 24 * hour; // older than anything else in this database: first in age order
    const at = (hours: number) => new Date(base + hours * hour).toISOString();
    const first = await openCase({ createdAt: at(0), restrictiveLists: [{ extra: {} }] });
    const plain = await openCase({ createdAt: at(1) });
    const second = await openCase({ createdAt: at(2), restrictiveLists: [{ extra: {} }] });
    const me = await makeStaff(handle.db, "analyst");
    const listed = { queue: "open", sort: "age", flag: "restrictive_list" } as const;
    const middle = await getCase(handle.db, "primary", second.publicId, listed, me.actor.id);
    expect(middle?.previous).toBe(first.publicId);
    const unfiltered = await getCase(handle.db, "primary", second.publicId, { queue: "open", sort: "age" }, me.actor.id);
    expect(unfiltered?.previous).toBe(plain.publicId);
    expect((await getCase(handle.db, "primary", first.publicId, listed, me.actor.id))?.next).toBe(second.publicId);
    // A case that has just left the queue (decided) still leads on to the next one of that queue.
    await assignCase(handle.db, me, first.publicId, "me");
    await recordOutcome(handle.db, me, first.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" });
    expect((await getCase(handle.db, "primary", first.publicId, listed, me.actor.id))?.next).toBe(second.publicId);
  });

  it("the Open tab leaves out one's own recommendations waiting for confirmation, and its count moves with them", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const other = await makeStaff(handle.db, "analyst");
    const mine = await openCase();
    const theirs = await openCase();
    await assignCase(handle.db, author, mine.publicId, "me");
    await assignCase(handle.db, other, theirs.publicId, "me");
    const before = await listQueue(handle.db, "primary", OPEN_QUEUE, author.actor);
    const ids = (list: typeof before) => list.items.map((item) => item.publicId);
    expect(ids(before)).toEqual(expect.arrayContaining([mine.publicId, theirs.publicId]));

    const reprove = { recommendation: "reprove" as const, reasons: ["document_mismatch" as const], comment: "Dates differ." };
    await recordOutcome(handle.db, author, mine.publicId, reprove);
    await recordOutcome(handle.db, other, theirs.publicId, reprove);
    const after = await listQueue(handle.db, "primary", OPEN_QUEUE, author.actor);
    // Mine is done here: listed in Waiting for confirmation only; the colleague's is still mine to confirm.
    expect(ids(after)).not.toContain(mine.publicId);
    expect(ids(after)).toContain(theirs.publicId);
    expect(after.counts.open).toBe(before.counts.open - 1);
    expect(after.counts.confirming).toBe(before.counts.confirming + 2);
    const confirming = await listQueue(handle.db, "primary", { ...OPEN_QUEUE, queue: "confirming" }, author.actor);
    expect(ids(confirming)).toEqual(expect.arrayContaining([mine.publicId, theirs.publicId]));
    // The colleague sees it the other way round.
    const theirOpen = await listQueue(handle.db, "primary", OPEN_QUEUE, other.actor);
    expect(ids(theirOpen)).toContain(mine.publicId);
    expect(ids(theirOpen)).not.toContain(theirs.publicId);
  });
});

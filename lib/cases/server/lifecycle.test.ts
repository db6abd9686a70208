import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";

import { providerReviewStateToShow } from "@/lib/cases/rules";
import { caseEntries, cases } from "@/lib/cases/server/tables";
import { acquireLease, leaseDueInMs, releaseHeldLeases, releaseLease } from "@/lib/db/lease";
import { caseSuite, OPEN_QUEUE } from "@/test/case-suite";
import { FakeSyncClient, makeChange, makeStaff, makeVerification, TEST_SETTINGS } from "@/test/cases";
import { describeEachDatabase } from "@/test/db";

import { assignCase } from "./assignment";
import { getCase } from "./detail";
import { createCaseListener } from "./ingest";
import { recordOutcome } from "./outcome";
import { listQueue } from "./queue";
import { searchVerifications } from "./search";
import { applyObservations, observe } from "./store";
import { SYNC_LEASE, syncReviewCases } from "./sync";

/*
 * Cases opening, refreshing, closing and reopening from what the upstream says: observations, the sync and its
 * lease, events through the listener, and when a case's clock starts.
 */

describeEachDatabase("case lifecycle on $name", ({ name, open }) => {
  const { handle, openCase, workToConfirmedApproval } = caseSuite({ open });

  it("opens one case per verification in review, with a due time and a priority from its flags", async () => {
    const plain = await openCase();
    const flagged = await openCase({ status: "started", pepOrigin: "Prefeito", restrictiveLists: [{ extra: {} }] });
    const quiet = makeVerification({ status: "started" });
    await applyObservations(handle.db, [observe(quiet, TEST_SETTINGS)], TEST_SETTINGS);
    const plainCase = await getCase(handle.db, "primary", plain.publicId);
    expect(plainCase).toMatchObject({
      status: "open",
      upstreamStatus: "review",
      flags: [],
      priority: { score: 0, level: "normal", reasons: [] },
      documentMasked: "***.982.247-**",
    });
    expect(new Date(plainCase!.dueAt).getTime() - new Date(plainCase!.openedAt).getTime()).toBe(24 * 3_600_000);
    expect(plainCase!.entries.map((entry) => entry.kind)).toEqual(["opened"]);
    expect(await getCase(handle.db, "primary", flagged.publicId)).toMatchObject({
      flags: ["pep", "restrictive_list"],
      // lib/cases/priority.ts: a restrictive list 8, a PEP 6; due in 24 h adds nothing yet.
      priority: {
        score: 14,
        reasons: [
          { kind: "flag", flag: "restrictive_list" },
          { kind: "flag", flag: "pep" },
        ],
      },
    });
    expect(await getCase(handle.db, "primary", quiet.publicId)).toBeNull();
  });

  it("keeps only a masked document, never a raw CPF", async () => {
    const verification = await openCase({ document: "529.982.247-25", documentMasked: false });
    const [row] = await handle.db.select().from(cases).where(eq(cases.publicId, verification.publicId));
    expect(row?.documentMasked).toBe("***.982.247-**");
    expect(JSON.stringify(row)).not.toMatch(/529\.?982\.?247-?25/);
  });

  it("closes on a final status, keeps its history and says when a confirmed recommendation disagrees", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const second = await makeStaff(handle.db, "analyst");
    const verification = await openCase({ pepOrigin: "Senador" });
    await workToConfirmedApproval(verification.publicId, { author, confirmer: second }, { note: "Documents look fine.", comment: "" });

    const closedAt = await applyObservations(handle.db, [observe({ ...verification, status: "reproved" }, TEST_SETTINGS)], TEST_SETTINGS);
    expect(closedAt.closed).toEqual([verification.publicId]);
    // The same final status again (an event delivered twice) changes nothing.
    expect(
      (await applyObservations(handle.db, [observe({ ...verification, status: "reproved" }, TEST_SETTINGS)], TEST_SETTINGS)).closed,
    ).toEqual([]);
    const closed = await getCase(handle.db, "primary", verification.publicId);
    expect(closed).toMatchObject({
      status: "closed",
      finalStatus: "reproved",
      disagreement: true,
      recommendation: "approve",
      outcomeState: "confirmed",
    });
    expect(closed!.entries.map((entry) => entry.kind)).toEqual(["opened", "assigned", "note", "outcome", "confirmation", "closed"]);
    // A later final status does not change a closed case.
    await applyObservations(handle.db, [observe({ ...verification, status: "approved" }, TEST_SETTINGS)], TEST_SETTINGS);
    expect(await getCase(handle.db, "primary", verification.publicId)).toMatchObject({ status: "closed", finalStatus: "reproved" });

    const agreeing = await openCase();
    await assignCase(handle.db, author, agreeing.publicId, "me");
    await recordOutcome(handle.db, author, agreeing.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" });
    await applyObservations(handle.db, [observe({ ...agreeing, status: "approved" }, TEST_SETTINGS)], TEST_SETTINGS);
    expect(await getCase(handle.db, "primary", agreeing.publicId)).toMatchObject({ status: "closed", disagreement: false });
  });

  it("a closed case reopens, as the same case with a new history entry, when its verification is back in review", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const verification = await openCase();
    await assignCase(handle.db, author, verification.publicId, "me");
    await recordOutcome(handle.db, author, verification.publicId, {
      recommendation: "approve",
      reasons: ["identity_confirmed"],
      comment: "",
    });
    await applyObservations(handle.db, [observe({ ...verification, status: "reproved" }, TEST_SETTINGS)], TEST_SETTINGS);
    expect(await getCase(handle.db, "primary", verification.publicId)).toMatchObject({ status: "closed", disagreement: true });

    // An event whose verification cannot be read is no proof it is back: a late `review` delivery reopens nothing.
    const unreachable = createCaseListener({
      fetchVerification: async () => {
        throw new Error("connection refused");
      },
      settings: () => TEST_SETTINGS,
    });
    const change = makeChange({ publicId: verification.publicId, event: "verification.review", status: "review", deliveryId: "r1" });
    await unreachable(handle.db, change);
    expect(await getCase(handle.db, "primary", verification.publicId)).toMatchObject({ status: "closed" });

    // Read back in review (twice, as two instances would): reopened once, same case, outcome cleared, assignee kept.
    const back = observe({ ...verification, status: "review", pepOrigin: "Vereador" }, TEST_SETTINGS);
    const [first, again] = [
      await applyObservations(handle.db, [back], TEST_SETTINGS),
      await applyObservations(handle.db, [back], TEST_SETTINGS),
    ];
    expect(first.opened).toEqual([]);
    expect(again.opened).toEqual([]);
    const reopened = await getCase(handle.db, "primary", verification.publicId);
    expect(reopened).toMatchObject({
      status: "open",
      upstreamStatus: "review",
      finalStatus: null,
      closedAt: null,
      disagreement: false,
      recommendation: null,
      outcomeState: null,
      flags: ["pep"],
      assignee: { id: author.actor.id },
    });
    expect(reopened!.entries.map((entry) => entry.kind)).toEqual(["opened", "assigned", "outcome", "closed", "reopened"]);
    // The timeline names the assignee (the entry keeps only the staff id).
    expect(reopened!.entries[1]!.details).toMatchObject({ assigneeId: author.actor.id, assigneeEmail: author.actor.email });
    expect(await handle.db.select({ id: cases.id }).from(cases).where(eq(cases.publicId, verification.publicId))).toHaveLength(1);
    // The new round is worked and closed like the first.
    await recordOutcome(handle.db, author, verification.publicId, { recommendation: "escalate", reasons: ["pep_exposure"], comment: "" });
    await applyObservations(handle.db, [observe({ ...verification, status: "approved" }, TEST_SETTINGS)], TEST_SETTINGS);
    expect((await getCase(handle.db, "primary", verification.publicId))!.entries.map((entry) => entry.kind).slice(-3)).toEqual([
      "outcome",
      "escalated",
      "closed",
    ]);
  });

  it("the sync run twice gives the same cases, pages cheaply, and closes cases that left review", async () => {
    const items = Array.from({ length: 25 }, (_, index) =>
      makeVerification({ status: index % 5 === 0 ? "approved" : "review", document: "529.982.247-25", documentMasked: false }),
    );
    const client = new FakeSyncClient(items);
    const first = await syncReviewCases(handle.db, { client, settings: TEST_SETTINGS, perPage: 7 });
    expect(first).toMatchObject({ ran: true, seen: 20, opened: 20, pages: 3 });
    const snapshot = async () =>
      (await handle.db.select({ publicId: cases.publicId, status: cases.status, flags: cases.flags }).from(cases))
        .filter((row) => items.some((item) => item.publicId === row.publicId))
        .sort((a, b) => a.publicId.localeCompare(b.publicId));
    const after = await snapshot();
    const second = await syncReviewCases(handle.db, { client, settings: TEST_SETTINGS, perPage: 7 });
    expect(second).toMatchObject({ ran: true, seen: 20, opened: 0 });
    expect(await snapshot()).toEqual(after);
    const entries = await handle.db
      .select({ count: sql<number>`count(*)::int` })
      .from(caseEntries)
      .innerJoin(cases, eq(cases.id, caseEntries.caseId))
      .where(sql`${cases.publicId} in ${items.map((item) => item.publicId)}`);
    expect(entries[0]?.count).toBe(20);

    // One leaves review for a final status: the next pass does not see it in the list, fetches it and closes it.
    items[1]!.status = "approved";
    client.calls = 0;
    const third = await syncReviewCases(handle.db, { client, settings: TEST_SETTINGS, perPage: 7 });
    expect(third.closed).toBeGreaterThanOrEqual(1);
    expect((await getCase(handle.db, "primary", items[1]!.publicId))?.status).toBe("closed");
    expect(third.upstreamCalls).toBe(client.calls);
  });

  it("the lease lets one sync run at a time and spaces scheduled runs from one start to the next", async () => {
    const now = new Date();
    const name = `${SYNC_LEASE}.test.${name_suffix()}`;
    expect(await acquireLease(handle.db, { name, holder: "a", ttlMs: 60_000, now })).toBe(true);
    expect(await acquireLease(handle.db, { name, holder: "b", ttlMs: 60_000, now })).toBe(false);
    // Expired: another instance takes over.
    expect(await acquireLease(handle.db, { name, holder: "b", ttlMs: 60_000, now: new Date(now.getTime() + 61_000) })).toBe(true);
    await releaseLease(handle.db, name, "b", new Date(now.getTime() + 62_000));
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    // The gap runs from the last run's start (61 s), with a second of slack for a look that wakes at the due time.
    expect(await acquireLease(handle.db, { name, holder: "c", ttlMs: 60_000, minGapMs: 600_000, now: at(62) })).toBe(false);
    expect(await leaseDueInMs(handle.db, name, 600_000, at(62))).toBe(599_000);
    expect(await acquireLease(handle.db, { name, holder: "c", ttlMs: 60_000, minGapMs: 600_000, now: at(659) })).toBe(false);
    expect(await acquireLease(handle.db, { name, holder: "c", ttlMs: 60_000, minGapMs: 600_000, now: at(660.5) })).toBe(true);
  });

  it("a stopping instance hands back the leases it holds: another takes the work at once, not when they expire", async () => {
    const name = `${SYNC_LEASE}.test.${name_suffix()}`;
    expect(await acquireLease(handle.db, { name, holder: "stopping", ttlMs: 3_600_000 })).toBe(true);
    expect(await acquireLease(handle.db, { name, holder: "other", ttlMs: 60_000 })).toBe(false);
    expect(await releaseHeldLeases(handle.db)).toContain(name);
    expect(await acquireLease(handle.db, { name, holder: "other", ttlMs: 60_000 })).toBe(true);
    await releaseLease(handle.db, name, "other", null);
  });

  it("events feed cases through the listener, idempotently, and index their ref_id", async () => {
    const verification = makeVerification({ riskScore: 95, status: "started" });
    const listener = createCaseListener({ fetchVerification: async () => verification, settings: () => TEST_SETTINGS });
    const change = makeChange({ publicId: verification.publicId, status: "started", refId: `ref-${name}-1`, deliveryId: "d1" });
    await listener(handle.db, change);
    await listener(handle.db, change);
    const detail = await getCase(handle.db, "primary", verification.publicId);
    expect(detail).toMatchObject({ status: "open", flags: ["high_risk"] });
    expect(detail?.entries).toHaveLength(1);
    expect(await searchVerifications(handle.db, { ref_id: `ref-${name}-1` }, "primary")).toEqual([
      { publicId: verification.publicId, refId: `ref-${name}-1`, documentMasked: "***.982.247-**", caseStatus: "open" },
    ]);
  });

  it("an event whose verification cannot be read still opens and closes its case by status, keeping known flags", async () => {
    const flagged = await openCase({ pepOrigin: "Ministro" });
    const unreachable = createCaseListener({
      fetchVerification: async () => {
        throw new Error("connection refused");
      },
      settings: () => TEST_SETTINGS,
    });
    const base = { event: "verification.updated", deliveryId: "d2" };
    await unreachable(handle.db, makeChange({ ...base, publicId: flagged.publicId, status: "review" }));
    expect(await getCase(handle.db, "primary", flagged.publicId)).toMatchObject({ status: "open", flags: ["pep"] });
    const fresh = `unread-${name}-${Date.now()}`;
    await unreachable(handle.db, makeChange({ ...base, publicId: fresh, status: "review" }));
    expect(await getCase(handle.db, "primary", fresh)).toMatchObject({ status: "open", flags: [] });
    await unreachable(handle.db, makeChange({ ...base, publicId: fresh, status: "approved" }));
    expect(await getCase(handle.db, "primary", fresh)).toMatchObject({ status: "closed", finalStatus: "approved" });
  });

  it("a case's age and due time count from the verification's creation; the dashboard's first sight is kept apart", async () => {
    const monthAgo = new Date(Date.now() - 30 * 24 * 3_600_000);
    const old = await openCase({ createdAt: monthAgo.toISOString() });
    const detail = await getCase(handle.db, "primary", old.publicId);
    expect(detail?.openedAt).toBe(monthAgo.toISOString());
    expect(detail?.verificationCreatedAt).toBe(monthAgo.toISOString());
    expect(detail?.dueAt).toBe(new Date(monthAgo.getTime() + 24 * 3_600_000).toISOString());
    expect(Date.now() - new Date(detail!.firstSeenAt!).getTime()).toBeLessThan(60_000);
    // Oldest first is the verifications' order, and the month-old case is overdue and in the oldest bucket.
    const me = await makeStaff(handle.db, "analyst");
    const oldest = await listQueue(handle.db, "primary", { ...OPEN_QUEUE, age: "over_7d", overdue: "true" }, me.actor);
    expect(oldest.items.map((item) => item.publicId)).toContain(old.publicId);
    // A creation time in the future (another clock) never makes a case younger than its first sight.
    const ahead = await openCase({ createdAt: new Date(Date.now() + 3_600_000).toISOString() });
    const aheadCase = await getCase(handle.db, "primary", ahead.publicId);
    expect(new Date(aheadCase!.openedAt).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("a case first seen by an event alone learns its verification's creation from the next read", async () => {
    const publicId = `event-first-${name}-${name_suffix()}`;
    const unreachable = createCaseListener({
      fetchVerification: async () => {
        throw new Error("connection refused");
      },
      settings: () => TEST_SETTINGS,
    });
    await unreachable(handle.db, makeChange({ event: "verification.review", deliveryId: "d-age", publicId, status: "review" }));
    const firstSight = (await getCase(handle.db, "primary", publicId))!;
    const weekAgo = new Date(Date.now() - 7 * 24 * 3_600_000);
    await applyObservations(
      handle.db,
      [observe(makeVerification({ publicId, createdAt: weekAgo.toISOString() }), TEST_SETTINGS)],
      TEST_SETTINGS,
    );
    const learned = (await getCase(handle.db, "primary", publicId))!;
    expect(learned.openedAt).toBe(weekAgo.toISOString());
    expect(learned.dueAt).toBe(new Date(weekAgo.getTime() + 24 * 3_600_000).toISOString());
    expect(learned.firstSeenAt).toBe(firstSight.firstSeenAt);
  });

  it("an expired verification leaves the queue, closed with the reason; one in review does not expire", async () => {
    const me = await makeStaff(handle.db, "analyst");
    const past = new Date(Date.now() - 60_000).toISOString();
    // A red flag opened a case while the person had not finished (api/verification-statuses.mdx: expiry is
    // `expires_at`, the status keeps its value).
    const unfinished = await openCase({ status: "started", pepOrigin: "Prefeito" });
    expect((await listQueue(handle.db, "primary", OPEN_QUEUE, me.actor)).items.map((item) => item.publicId)).toContain(unfinished.publicId);
    const result = await applyObservations(handle.db, [observe({ ...unfinished, expiresAt: past }, TEST_SETTINGS)], TEST_SETTINGS);
    expect(result.closed).toEqual([unfinished.publicId]);
    const closed = await getCase(handle.db, "primary", unfinished.publicId);
    expect(closed).toMatchObject({
      status: "closed",
      closedReason: "expired",
      finalStatus: null,
      upstreamStatus: "started",
      disagreement: false,
    });
    expect(closed!.entries.at(-1)).toMatchObject({ kind: "closed", details: { reason: "expired", status: "started" } });
    expect((await listQueue(handle.db, "primary", OPEN_QUEUE, me.actor)).items.map((item) => item.publicId)).not.toContain(
      unfinished.publicId,
    );
    const closedQueue = await listQueue(handle.db, "primary", { ...OPEN_QUEUE, queue: "closed" }, me.actor);
    expect(closedQueue.items.find((item) => item.publicId === unfinished.publicId)).toMatchObject({ closedReason: "expired" });
    // Seen again (the sync, a redelivery): it stays closed, and opens no new case.
    expect(
      (await applyObservations(handle.db, [observe({ ...unfinished, expiresAt: past }, TEST_SETTINGS)], TEST_SETTINGS)).opened,
    ).toEqual([]);
    expect(await getCase(handle.db, "primary", unfinished.publicId)).toMatchObject({ status: "closed" });

    // In review the person's part is done: a past expires_at takes nothing from the analyst's queue.
    const inReview = await openCase({ expiresAt: past });
    expect(await getCase(handle.db, "primary", inReview.publicId)).toMatchObject({ status: "open" });
    // Not yet past: open.
    const future = await openCase({ status: "started", pepOrigin: "Vereador", expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(await getCase(handle.db, "primary", future.publicId)).toMatchObject({ status: "open" });
  });

  it("verification.expired closes the case as expired, read or not, unless the verification is in review", async () => {
    const unfinished = await openCase({ status: "not_opened", pepOrigin: "Ministro" });
    // Read: our clock has not reached its expires_at, but the service says the flow expired.
    const reading = createCaseListener({
      fetchVerification: async () => ({ ...unfinished, expiresAt: new Date(Date.now() + 60_000).toISOString() }),
      settings: () => TEST_SETTINGS,
    });
    await reading(handle.db, makeChange({ publicId: unfinished.publicId, event: "verification.expired", status: "not_opened" }));
    expect(await getCase(handle.db, "primary", unfinished.publicId)).toMatchObject({ status: "closed", closedReason: "expired" });

    const unreachable = createCaseListener({
      fetchVerification: async () => {
        throw new Error("connection refused");
      },
      settings: () => TEST_SETTINGS,
    });
    // Unread, and the envelope says no status: the event alone closes it.
    const other = await openCase({ status: "started", pepOrigin: "Senador" });
    await unreachable(handle.db, makeChange({ publicId: other.publicId, event: "verification.expired" }));
    expect(await getCase(handle.db, "primary", other.publicId)).toMatchObject({ status: "closed", closedReason: "expired" });
    // In review (by the event's status or as read): the analyst's case stays.
    const reviewed = await openCase();
    await unreachable(handle.db, makeChange({ publicId: reviewed.publicId, event: "verification.expired", status: "review" }));
    await createCaseListener({ fetchVerification: async () => reviewed, settings: () => TEST_SETTINGS })(
      handle.db,
      makeChange({ publicId: reviewed.publicId, event: "verification.expired" }),
    );
    expect(await getCase(handle.db, "primary", reviewed.publicId)).toMatchObject({ status: "open", closedReason: null });
  });

  it("keeps the provider's review sub-state and shows it beside the case's stage where the two differ", async () => {
    const me = await makeStaff(handle.db, "analyst");
    const verification = await openCase({ reviewState: "assigned" });
    const detail = await getCase(handle.db, "primary", verification.publicId);
    expect(detail).toMatchObject({ upstreamReviewState: "assigned", assignee: null });
    // Nobody holds it here, an analyst holds it at the provider: shown.
    expect(providerReviewStateToShow(detail!)).toBe("assigned");
    await assignCase(handle.db, me, verification.publicId, "me");
    expect(providerReviewStateToShow((await getCase(handle.db, "primary", verification.publicId))!)).toBeNull();
    // Decided at the provider while still being worked here: shown again.
    await applyObservations(handle.db, [observe({ ...verification, reviewState: "decided" }, TEST_SETTINGS)], TEST_SETTINGS);
    const decided = await getCase(handle.db, "primary", verification.publicId);
    expect(decided).toMatchObject({ upstreamReviewState: "decided" });
    expect(providerReviewStateToShow(decided!)).toBe("decided");
  });
});

function name_suffix(): string {
  return Math.random().toString(36).slice(2, 8);
}

import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { httpStatusOf } from "@/lib/api/errors";
import { cpfHash } from "@/lib/audit-trail/server";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { redFlags } from "@/lib/cases/red-flags";
import {
  ageBucketBounds,
  disagrees,
  flagsOf,
  needsConfirmation,
  needsPerson,
  outcomeProblems,
  QUEUES,
  REASON_CODES,
  recommendationsOf,
  stageOf,
} from "@/lib/cases/rules";
import { caseEntries, cases } from "@/lib/cases/server/tables";
import { NOTE_MAX_CHARS, noteSchema, outcomeSchema, queueQuerySchema, searchSchema } from "@/lib/cases/validation";
import { createDatabase } from "@/lib/db/client";
import { acquireLease, releaseLease } from "@/lib/db/lease";
import { FakeSyncClient, makeStaff, makeVerification, TEST_SETTINGS } from "@/test/cases";
import { describeEachDatabase, stubTestEnvironment, type TestDatabase } from "@/test/db";

import { addNote, assignCase, CaseTakenError, confirmOutcome, recordOutcome } from "./actions";
import { createCaseListener } from "./ingest";
import { indexVerifications, searchVerifications } from "./search";
import { applyObservations, getCase, listQueue, observe } from "./store";
import { SYNC_LEASE, syncReviewCases } from "./sync";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

const QUEUE = { queue: "open", sort: "age", page: 1, per_page: 200 } as const;

describe("case rules", () => {
  it("age buckets meet without gap or overlap, and the queue's period filter names a bad field", () => {
    const now = new Date("2026-03-11T18:00:00Z");
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
    expect(ageBucketBounds("under_1d", now)).toEqual({ after: hoursAgo(24), atOrBefore: null });
    expect(ageBucketBounds("1d_3d", now)).toEqual({ after: hoursAgo(72), atOrBefore: hoursAgo(24) });
    expect(ageBucketBounds("over_7d", now)).toEqual({ after: null, atOrBefore: hoursAgo(168) });
    const bad = queueQuerySchema.safeParse({ queue: "closed", closed_from: "2026-03-10T00:00:00Z", closed_to: "yesterday" });
    expect(bad.error?.issues.map((issue) => issue.path.join("."))).toEqual(["closed_to"]);
    const reversed = queueQuerySchema.safeParse({ closed_from: "2026-03-10T00:00:00Z", closed_to: "2026-03-09T00:00:00Z" });
    expect(reversed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["closed_to"]);
    expect(queueQuerySchema.safeParse({ age: "forever" }).error?.issues[0]?.path).toEqual(["age"]);
  });

  it("flags PEP, restrictive lists, facematch under 80 % and risk at or above the threshold (0..100)", () => {
    expect(flagsOf(makeVerification(), 70)).toEqual([]);
    const flagged = makeVerification({
      pepOrigin: "Deputado Estadual",
      restrictiveLists: [{ name: "OFAC", extra: {} }],
      similarity: 79.99,
      riskScore: 70,
    });
    expect(flagsOf(flagged, 70)).toEqual(["pep", "restrictive_list", "low_facematch", "high_risk"]);
    expect(flagsOf(makeVerification({ similarity: 80, riskScore: 69 }), 70)).toEqual([]);
  });

  it("agrees with the verification's red flags, with the case's threshold on top", () => {
    const verification = makeVerification({
      pepOrigin: "Prefeito",
      restrictiveLists: [
        { name: "OFAC", extra: {} },
        { name: "CEIS", extra: {} },
      ],
      similarity: 50,
      riskScore: 55,
    });
    const shown = redFlags(verification).map((flag) => flag.kind);
    expect(shown).toEqual(["pep", "restrictive_list", "restrictive_list", "facematch_below"]);
    // Same computation: without a lower threshold, no high risk on either side; with one, both see it.
    expect(flagsOf(verification, 70)).toEqual(["pep", "restrictive_list", "low_facematch"]);
    expect(flagsOf(verification, 50)).toContain("high_risk");
    expect(redFlags(verification, { riskThreshold: 50 }).map((flag) => flag.kind)).toContain("high_risk");
  });

  it("opens for review or an enabled red flag, never on a final status", () => {
    expect(needsPerson("review", [], TEST_SETTINGS)).toBe(true);
    expect(needsPerson("started", ["pep"], TEST_SETTINGS)).toBe(true);
    expect(needsPerson("started", ["pep"], { ...TEST_SETTINGS, redFlags: ["high_risk"] })).toBe(false);
    expect(needsPerson("approved", ["pep"], TEST_SETTINGS)).toBe(false);
    expect(needsPerson("started", [], TEST_SETTINGS)).toBe(false);
  });

  it("four eyes for a reprove and for any outcome on a PEP or restrictive-list case", () => {
    expect(needsConfirmation("approve", [])).toBe(false);
    expect(needsConfirmation("reprove", [])).toBe(true);
    expect(needsConfirmation("approve", ["pep"])).toBe(true);
    // An escalation decides nothing: the decision taken in the escalation queue is the one confirmed.
    expect(needsConfirmation("escalate", ["restrictive_list"])).toBe(false);
    expect(needsConfirmation("approve", ["low_facematch", "high_risk"])).toBe(false);
    expect(disagrees("approve", true, "reproved")).toBe(true);
    expect(disagrees("approve", false, "reproved")).toBe(false);
    expect(disagrees("escalate", true, "approved")).toBe(false);
  });

  it("reasons belong to their recommendation; a reprove needs a reprove reason and a comment", () => {
    const issues = (input: unknown) => outcomeSchema.safeParse(input).error?.issues.map((issue) => issue.path.join(".")) ?? [];
    expect(issues({ recommendation: "approve", reasons: ["identity_confirmed"], comment: "" })).toEqual([]);
    // The issue's example: an approve citing a document mismatch, with no comment, is refused naming the reasons.
    expect(issues({ recommendation: "approve", reasons: ["document_mismatch"], comment: "" })).toEqual(["reasons"]);
    expect(issues({ recommendation: "reprove", reasons: ["identity_confirmed"], comment: "Dates differ." })).toEqual(["reasons"]);
    expect(issues({ recommendation: "reprove", reasons: ["document_mismatch"], comment: "  " })).toEqual(["comment"]);
    expect(issues({ recommendation: "reprove", reasons: ["document_mismatch"], comment: "Birth date differs." })).toEqual([]);
    expect(issues({ recommendation: "reprove", reasons: [], comment: "x" })).toEqual(["reasons"]);
    // Every reason belongs to at least one recommendation, and the catalogue says which.
    for (const code of REASON_CODES) expect(recommendationsOf(code).length).toBeGreaterThan(0);
    expect(recommendationsOf("identity_confirmed")).toEqual(["approve"]);
    expect(outcomeProblems({ recommendation: "escalate", reasons: ["pep_exposure"], comment: "" })).toEqual([]);
  });

  it("notes and comments are capped plain text; the search takes a ref_id or a valid CPF, never both", () => {
    expect(noteSchema.safeParse({ text: "x".repeat(NOTE_MAX_CHARS) }).success).toBe(true);
    const long = noteSchema.safeParse({ text: "x".repeat(NOTE_MAX_CHARS + 1) });
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]?.path).toEqual(["text"]);
    expect(noteSchema.safeParse({ text: "   " }).success).toBe(false);
    expect(noteSchema.safeParse({ text: "a\u0000b" }).success).toBe(false);
    expect(searchSchema.safeParse({ cpf: "529.982.247-25" }).success).toBe(true);
    expect(searchSchema.safeParse({ cpf: "529.982.247-24" }).success).toBe(false);
    expect(searchSchema.safeParse({ cpf: "529.982.247-25", ref_id: "x" }).success).toBe(false);
  });
});

describeEachDatabase("case work on $name", ({ name, open }) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  async function openCase(overrides: Parameters<typeof makeVerification>[0] = {}) {
    const verification = makeVerification(overrides);
    await applyObservations(handle.db, [observe(verification, TEST_SETTINGS)], TEST_SETTINGS);
    return verification;
  }

  async function auditOf(publicId: string) {
    return handle.db.select().from(auditEvents).where(eq(auditEvents.target, publicId)).orderBy(auditEvents.id);
  }

  it("opens one case per verification in review, with a due time and a priority from its flags", async () => {
    const plain = await openCase();
    const flagged = await openCase({ status: "started", pepOrigin: "Prefeito", restrictiveLists: [{ extra: {} }] });
    const quiet = makeVerification({ status: "started" });
    await applyObservations(handle.db, [observe(quiet, TEST_SETTINGS)], TEST_SETTINGS);
    const plainCase = await getCase(handle.db, plain.publicId);
    expect(plainCase).toMatchObject({ status: "open", upstreamStatus: "review", flags: [], priority: 0, documentMasked: "***.982.247-**" });
    expect(new Date(plainCase!.dueAt).getTime() - new Date(plainCase!.openedAt).getTime()).toBe(24 * 3_600_000);
    expect(plainCase!.entries.map((entry) => entry.kind)).toEqual(["opened"]);
    expect(await getCase(handle.db, flagged.publicId)).toMatchObject({ flags: ["pep", "restrictive_list"], priority: 7 });
    expect(await getCase(handle.db, quiet.publicId)).toBeNull();
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
    await assignCase(handle.db, author, verification.publicId, "me");
    await addNote(handle.db, author, verification.publicId, "Documents look fine.");
    await recordOutcome(handle.db, author, verification.publicId, {
      recommendation: "approve",
      reasons: ["identity_confirmed"],
      comment: "",
    });
    await confirmOutcome(handle.db, second, verification.publicId, { agree: true, comment: "" });

    const closedAt = await applyObservations(handle.db, [observe({ ...verification, status: "reproved" }, TEST_SETTINGS)], TEST_SETTINGS);
    expect(closedAt.closed).toEqual([verification.publicId]);
    // The same final status again (an event delivered twice) changes nothing.
    expect(
      (await applyObservations(handle.db, [observe({ ...verification, status: "reproved" }, TEST_SETTINGS)], TEST_SETTINGS)).closed,
    ).toEqual([]);
    const closed = await getCase(handle.db, verification.publicId);
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
    expect(await getCase(handle.db, verification.publicId)).toMatchObject({ status: "closed", finalStatus: "reproved" });

    const agreeing = await openCase();
    await assignCase(handle.db, author, agreeing.publicId, "me");
    await recordOutcome(handle.db, author, agreeing.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" });
    await applyObservations(handle.db, [observe({ ...agreeing, status: "approved" }, TEST_SETTINGS)], TEST_SETTINGS);
    expect(await getCase(handle.db, agreeing.publicId)).toMatchObject({ status: "closed", disagreement: false });
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
    expect(await getCase(handle.db, verification.publicId)).toMatchObject({ status: "closed", disagreement: true });

    // An event whose verification cannot be read is no proof it is back: a late `review` delivery reopens nothing.
    const unreachable = createCaseListener({
      fetchVerification: async () => {
        throw new Error("connection refused");
      },
      settings: () => TEST_SETTINGS,
    });
    const change = {
      publicId: verification.publicId,
      event: "verification.review",
      status: "review",
      refId: null,
      occurredAt: new Date(),
      deliveryId: "r1",
    };
    await unreachable(handle.db, change);
    expect(await getCase(handle.db, verification.publicId)).toMatchObject({ status: "closed" });

    // Read back in review (twice, as two instances would): reopened once, same case, outcome cleared, assignee kept.
    const back = observe({ ...verification, status: "review", pepOrigin: "Vereador" }, TEST_SETTINGS);
    const [first, again] = [
      await applyObservations(handle.db, [back], TEST_SETTINGS),
      await applyObservations(handle.db, [back], TEST_SETTINGS),
    ];
    expect(first.opened).toEqual([]);
    expect(again.opened).toEqual([]);
    const reopened = await getCase(handle.db, verification.publicId);
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
    expect((await getCase(handle.db, verification.publicId))!.entries.map((entry) => entry.kind).slice(-3)).toEqual([
      "outcome",
      "escalated",
      "closed",
    ]);
  });

  it("a claim race from two database connections has one winner; the other is told who holds it", async () => {
    const first = await makeStaff(handle.db, "analyst");
    const second = await makeStaff(handle.db, "analyst");
    const verification = await openCase();
    // PostgreSQL: a second, independent pool on the same database, as a second instance would have.
    const other = handle.url ? await createDatabase({ url: handle.url }) : null;
    try {
      const results = await Promise.allSettled([
        assignCase(handle.db, first, verification.publicId, "me"),
        assignCase(other?.db ?? handle.db, second, verification.publicId, "me"),
      ]);
      const won = results.filter((result) => result.status === "fulfilled");
      const lost = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(CaseTakenError);
      const winner = results[0]!.status === "fulfilled" ? first : second;
      expect(httpStatusOf(lost[0]!.reason as CaseTakenError)).toBe(409);
      expect((lost[0]!.reason as CaseTakenError).message).toContain(winner.actor.email);
      const detail = await getCase(handle.db, verification.publicId);
      expect(detail?.assignee?.id).toBe(winner.actor.id);
      expect(detail?.entries.filter((entry) => entry.kind === "assigned")).toHaveLength(1);
      const trail = await auditOf(verification.publicId);
      expect(trail.map((event) => [event.action, event.outcome])).toEqual(
        expect.arrayContaining([
          ["case.assign", "success"],
          ["case.assign", "failure"],
        ]),
      );
    } finally {
      await other?.close();
    }
  });

  it("assignment: claim, reassign and unassign by an admin; an analyst cannot assign others or take a held case", async () => {
    const analyst = await makeStaff(handle.db, "analyst");
    const colleague = await makeStaff(handle.db, "analyst");
    const admin = await makeStaff(handle.db, "admin");
    const verification = await openCase();
    await expect(assignCase(handle.db, analyst, verification.publicId, colleague.actor.id)).rejects.toMatchObject({ code: "forbidden" });
    await assignCase(handle.db, analyst, verification.publicId, "me");
    // Claiming again is a no-op, naming one's own id is a claim (no takeover), and the colleague is refused.
    await expect(assignCase(handle.db, analyst, verification.publicId, "me")).resolves.toEqual({ assigneeId: analyst.actor.id });
    await expect(assignCase(handle.db, colleague, verification.publicId, colleague.actor.id)).rejects.toBeInstanceOf(CaseTakenError);
    await expect(assignCase(handle.db, colleague, verification.publicId, null)).rejects.toMatchObject({ code: "forbidden" });
    await assignCase(handle.db, admin, verification.publicId, colleague.actor.id);
    expect((await getCase(handle.db, verification.publicId))?.assignee?.id).toBe(colleague.actor.id);
    await assignCase(handle.db, admin, verification.publicId, null);
    expect((await getCase(handle.db, verification.publicId))?.assignee).toBeNull();
    await expect(assignCase(handle.db, admin, verification.publicId, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      code: "validation",
      fields: ["assignee"],
    });
    await expect(assignCase(handle.db, analyst, "no-such-case", "me")).rejects.toMatchObject({ code: "not_found" });
    const kinds = (await getCase(handle.db, verification.publicId))!.entries.map((entry) => entry.kind);
    expect(kinds).toEqual(["opened", "assigned", "assigned", "unassigned"]);
  });

  it("only the assignee records an outcome; four eyes: the author cannot confirm, another analyst or an admin can", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const other = await makeStaff(handle.db, "analyst");
    const admin = await makeStaff(handle.db, "admin");
    const verification = await openCase();
    const outcome = { recommendation: "reprove", reasons: ["document_mismatch"], comment: "Name differs." } as const;
    await expect(
      recordOutcome(handle.db, author, verification.publicId, { ...outcome, reasons: [...outcome.reasons] }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await assignCase(handle.db, author, verification.publicId, "me");
    await expect(
      recordOutcome(handle.db, other, verification.publicId, { ...outcome, reasons: [...outcome.reasons] }),
    ).rejects.toMatchObject({ code: "forbidden" });
    expect(await recordOutcome(handle.db, author, verification.publicId, { ...outcome, reasons: [...outcome.reasons] })).toEqual({
      outcomeState: "pending_confirmation",
    });
    expect((await listQueue(handle.db, { ...QUEUE, queue: "confirming" }, other.actor.id)).items.map((item) => item.publicId)).toContain(
      verification.publicId,
    );
    await expect(confirmOutcome(handle.db, author, verification.publicId, { agree: true, comment: "" })).rejects.toMatchObject({
      code: "forbidden",
    });
    // Another analyst disagrees: back to the author, who records again; an admin then confirms.
    expect(await confirmOutcome(handle.db, other, verification.publicId, { agree: false, comment: "Check the mother's name." })).toEqual({
      outcomeState: "rejected",
    });
    await expect(confirmOutcome(handle.db, admin, verification.publicId, { agree: true, comment: "" })).rejects.toMatchObject({
      code: "conflict",
    });
    await recordOutcome(handle.db, author, verification.publicId, { ...outcome, reasons: ["document_mismatch", "other"] });
    expect(await confirmOutcome(handle.db, admin, verification.publicId, { agree: true, comment: "" })).toEqual({
      outcomeState: "confirmed",
    });
    await expect(
      recordOutcome(handle.db, author, verification.publicId, { ...outcome, reasons: [...outcome.reasons] }),
    ).rejects.toMatchObject({
      code: "conflict",
    });
    const detail = await getCase(handle.db, verification.publicId);
    expect(detail).toMatchObject({ outcomeState: "confirmed", reasons: ["document_mismatch", "other"] });
    expect(detail?.confirmedBy?.id).toBe(admin.actor.id);

    // An admin author cannot confirm their own either; an approval without flags needs nobody.
    const adminCase = await openCase({ restrictiveLists: [{ extra: {} }] });
    await assignCase(handle.db, admin, adminCase.publicId, "me");
    await recordOutcome(handle.db, admin, adminCase.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" });
    await expect(confirmOutcome(handle.db, admin, adminCase.publicId, { agree: true, comment: "" })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(confirmOutcome(handle.db, other, adminCase.publicId, { agree: true, comment: "" })).resolves.toEqual({
      outcomeState: "confirmed",
    });
    const plain = await openCase();
    await assignCase(handle.db, author, plain.publicId, "me");
    expect(
      await recordOutcome(handle.db, author, plain.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" }),
    ).toEqual({
      outcomeState: "recorded",
    });
  });

  it("two confirmations at once: one wins", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const [a, b] = [await makeStaff(handle.db, "analyst"), await makeStaff(handle.db, "admin")];
    const verification = await openCase();
    await assignCase(handle.db, author, verification.publicId, "me");
    await recordOutcome(handle.db, author, verification.publicId, { recommendation: "reprove", reasons: ["other"], comment: "" });
    const other = handle.url ? await createDatabase({ url: handle.url }) : null;
    try {
      const results = await Promise.allSettled([
        confirmOutcome(handle.db, a, verification.publicId, { agree: true, comment: "" }),
        confirmOutcome(other?.db ?? handle.db, b, verification.publicId, { agree: false, comment: "no" }),
      ]);
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      expect((await getCase(handle.db, verification.publicId))!.entries.filter((entry) => entry.kind === "confirmation")).toHaveLength(1);
    } finally {
      await other?.close();
    }
  });

  it("notes are append-only plain text kept verbatim (inert), and never reach the audit trail", async () => {
    const analyst = await makeStaff(handle.db, "analyst");
    const verification = await openCase();
    const text = `<img src=x onerror="alert(1)"> <script>alert(2)</script> CPF 529.982.247-25 https://example.test/`;
    // Notes are the assignee's (or a queue runner's): the analyst takes the case first.
    await assignCase(handle.db, analyst, verification.publicId, "me");
    await addNote(handle.db, analyst, verification.publicId, text);
    const [entry] = await handle.db
      .select()
      .from(caseEntries)
      .where(eq(caseEntries.kind, "note"))
      .orderBy(sql`${caseEntries.id} desc`)
      .limit(1);
    // Sealed at rest (sealed-text.ts): the row holds an envelope, the case answers the words.
    expect(entry?.text).toMatch(/^v1\./);
    expect(entry?.text).not.toContain("alert");
    const detail = await getCase(handle.db, verification.publicId);
    expect(detail?.entries.at(-1)).toMatchObject({ kind: "note", text, actor: { id: analyst.actor.id } });
    const trail = await auditOf(verification.publicId);
    expect(trail.map((event) => event.action)).toContain("case.note_add");
    const serialized = JSON.stringify(trail);
    expect(serialized).not.toContain("alert");
    expect(serialized).not.toContain("example.test");
    expect(trail.find((event) => event.action === "case.note_add")?.details).toEqual({ length: text.length });
  });

  it("every action is on the audit trail with its actor and address", async () => {
    const analyst = await makeStaff(handle.db, "analyst");
    const admin = await makeStaff(handle.db, "admin");
    const verification = await openCase({ pepOrigin: "Vereador" });
    await assignCase(handle.db, analyst, verification.publicId, "me");
    await addNote(handle.db, analyst, verification.publicId, "ok");
    await recordOutcome(handle.db, analyst, verification.publicId, {
      recommendation: "approve",
      reasons: ["identity_confirmed"],
      comment: "c",
    });
    await confirmOutcome(handle.db, admin, verification.publicId, { agree: true, comment: "" });
    await assignCase(handle.db, admin, verification.publicId, null);
    const trail = await auditOf(verification.publicId);
    expect(trail.map((event) => [event.action, event.actorId, event.outcome, event.ip, event.targetType])).toEqual([
      ["case.assign", analyst.actor.id, "success", "203.0.113.9", "verification"],
      ["case.note_add", analyst.actor.id, "success", "203.0.113.9", "verification"],
      ["case.outcome", analyst.actor.id, "success", "203.0.113.9", "verification"],
      ["case.confirm", admin.actor.id, "success", "203.0.113.9", "verification"],
      ["case.unassign", admin.actor.id, "success", "203.0.113.9", "verification"],
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
    expect((await getCase(handle.db, items[1]!.publicId))?.status).toBe("closed");
    expect(third.upstreamCalls).toBe(client.calls);
  });

  it("the lease lets one sync run at a time and spaces scheduled runs", async () => {
    const now = new Date();
    const name = `${SYNC_LEASE}.test.${name_suffix()}`;
    expect(await acquireLease(handle.db, { name, holder: "a", ttlMs: 60_000, now })).toBe(true);
    expect(await acquireLease(handle.db, { name, holder: "b", ttlMs: 60_000, now })).toBe(false);
    // Expired: another instance takes over.
    expect(await acquireLease(handle.db, { name, holder: "b", ttlMs: 60_000, now: new Date(now.getTime() + 61_000) })).toBe(true);
    await releaseLease(handle.db, name, "b", now);
    expect(
      await acquireLease(handle.db, { name, holder: "c", ttlMs: 60_000, minGapMs: 600_000, now: new Date(now.getTime() + 1000) }),
    ).toBe(false);
    expect(
      await acquireLease(handle.db, { name, holder: "c", ttlMs: 60_000, minGapMs: 600_000, now: new Date(now.getTime() + 601_000) }),
    ).toBe(true);
  });

  it("events feed cases through the listener, idempotently, and index their ref_id", async () => {
    const verification = makeVerification({ riskScore: 95, status: "started" });
    const listener = createCaseListener({ fetchVerification: async () => verification, settings: () => TEST_SETTINGS });
    const change = {
      publicId: verification.publicId,
      event: "verification.updated",
      status: "started",
      refId: `ref-${name}-1`,
      occurredAt: new Date(),
      deliveryId: "d1",
    };
    await listener(handle.db, change);
    await listener(handle.db, change);
    const detail = await getCase(handle.db, verification.publicId);
    expect(detail).toMatchObject({ status: "open", flags: ["high_risk"] });
    expect(detail?.entries).toHaveLength(1);
    expect(await searchVerifications(handle.db, { ref_id: `ref-${name}-1` })).toEqual([
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
    const base = { event: "verification.updated", refId: null, occurredAt: new Date(), deliveryId: "d2" };
    await unreachable(handle.db, { ...base, publicId: flagged.publicId, status: "review" });
    expect(await getCase(handle.db, flagged.publicId)).toMatchObject({ status: "open", flags: ["pep"] });
    const fresh = `unread-${name}-${Date.now()}`;
    await unreachable(handle.db, { ...base, publicId: fresh, status: "review" });
    expect(await getCase(handle.db, fresh)).toMatchObject({ status: "open", flags: [] });
    await unreachable(handle.db, { ...base, publicId: fresh, status: "approved" });
    expect(await getCase(handle.db, fresh)).toMatchObject({ status: "closed", finalStatus: "approved" });
  });

  it("search by ref_id and by CPF (keyed hash; the CPF is never stored)", async () => {
    const cpf = "390.533.447-05";
    const publicId = `created-${name}-${Date.now()}`;
    await indexVerifications(handle.db, [{ publicId, refId: "order-77", cpf, createdHere: true }]);
    expect(await searchVerifications(handle.db, { cpf: "39053344705" })).toEqual(
      expect.arrayContaining([{ publicId, refId: "order-77", documentMasked: "***.533.447-**", caseStatus: null }]),
    );
    expect((await searchVerifications(handle.db, { ref_id: "order-77" })).map((hit) => hit.publicId)).toContain(publicId);
    expect(await searchVerifications(handle.db, { ref_id: "order-78" })).toEqual([]);
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
    const mine = await listQueue(handle.db, { ...QUEUE, queue: "mine" }, me.actor.id);
    expect(mine.items.map((item) => item.publicId)).toEqual([older.publicId]);
    expect(mine.items[0]?.assignee?.email).toBe(me.actor.email);
    expect(mine.counts.mine).toBe(1);
    const unassigned = await listQueue(handle.db, { ...QUEUE, queue: "unassigned" }, me.actor.id);
    expect(unassigned.items.map((item) => item.publicId)).toContain(urgent.publicId);
    expect(unassigned.items.map((item) => item.publicId)).not.toContain(older.publicId);
    const byPriority = await listQueue(handle.db, { ...QUEUE, sort: "priority" }, me.actor.id);
    expect(byPriority.items.map((item) => item.priority)).toEqual([...byPriority.items.map((item) => item.priority)].sort((a, b) => b - a));
    const byAge = await listQueue(handle.db, QUEUE, me.actor.id);
    const ages = byAge.items.map((item) => item.openedAt);
    expect(ages).toEqual([...ages].sort());
    const flagged = await listQueue(handle.db, { ...QUEUE, flag: "restrictive_list" }, me.actor.id);
    expect(flagged.items.every((item) => item.flags.includes("restrictive_list"))).toBe(true);
    expect(flagged.items.map((item) => item.publicId)).toContain(urgent.publicId);
    const detail = await getCase(handle.db, older.publicId);
    expect(detail?.next).not.toBeNull();
  });

  it("outcomes move: an effective decision leaves Open for Decided, an escalation goes to Escalated with an owner, the provider closes", async () => {
    const analyst = await makeStaff(handle.db, "analyst");
    const second = await makeStaff(handle.db, "analyst");
    const admin = await makeStaff(handle.db, "admin");
    const queuesOf = async (publicId: string, who: typeof analyst) => {
      const found: string[] = [];
      for (const queue of QUEUES) {
        const list = await listQueue(handle.db, { ...QUEUE, queue }, who.actor.id);
        if (list.items.some((item) => item.publicId === publicId)) found.push(queue);
      }
      return found;
    };
    const stage = async (publicId: string) => stageOf((await getCase(handle.db, publicId))!);

    // An approve needing no confirmation is effective at once: decided here, awaiting the provider.
    const approved = await openCase();
    await assignCase(handle.db, analyst, approved.publicId, "me");
    expect(await queuesOf(approved.publicId, analyst)).toEqual(["open", "mine"]);
    await recordOutcome(handle.db, analyst, approved.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" });
    expect(await queuesOf(approved.publicId, analyst)).toEqual(["decided"]);
    expect(await stage(approved.publicId)).toBe("decided");
    await applyObservations(handle.db, [observe({ ...approved, status: "approved" }, TEST_SETTINGS)], TEST_SETTINGS);
    expect(await queuesOf(approved.publicId, analyst)).toEqual(["closed"]);

    // A reprove waits for confirmation in Open, then leaves it once confirmed.
    const reproved = await openCase();
    await assignCase(handle.db, analyst, reproved.publicId, "me");
    await recordOutcome(handle.db, analyst, reproved.publicId, {
      recommendation: "reprove",
      reasons: ["document_mismatch"],
      comment: "Dates differ.",
    });
    expect(await queuesOf(reproved.publicId, analyst)).toEqual(["open", "mine", "confirming"]);
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
    expect((await getCase(handle.db, escalated.publicId))!.assignee).toBeNull();
    await expect(assignCase(handle.db, analyst, escalated.publicId, "me")).rejects.toMatchObject({ code: "forbidden" });
    await assignCase(handle.db, second, escalated.publicId, "me");
    expect(await queuesOf(escalated.publicId, second)).toEqual(["mine", "escalated"]);
    expect(await stage(escalated.publicId)).toBe("escalated");
    // The owner's approve on a PEP case needs four eyes, then it is decided here.
    await recordOutcome(handle.db, second, escalated.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" });
    expect(await queuesOf(escalated.publicId, second)).toEqual(["open", "mine", "confirming"]);
    await confirmOutcome(handle.db, analyst, escalated.publicId, { agree: true, comment: "" });
    expect(await queuesOf(escalated.publicId, second)).toEqual(["decided"]);
    expect((await getCase(handle.db, escalated.publicId))!.entries.map((entry) => entry.kind)).toEqual([
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
    const middle = await getCase(handle.db, second.publicId, listed, me.actor.id);
    expect(middle?.previous).toBe(first.publicId);
    const unfiltered = await getCase(handle.db, second.publicId, { queue: "open", sort: "age" }, me.actor.id);
    expect(unfiltered?.previous).toBe(plain.publicId);
    expect((await getCase(handle.db, first.publicId, listed, me.actor.id))?.next).toBe(second.publicId);
    // A case that has just left the queue (decided) still leads on to the next one of that queue.
    await assignCase(handle.db, me, first.publicId, "me");
    await recordOutcome(handle.db, me, first.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" });
    expect((await getCase(handle.db, first.publicId, listed, me.actor.id))?.next).toBe(second.publicId);
  });

  it("a case's age and due time count from the verification's creation; the dashboard's first sight is kept apart", async () => {
    const monthAgo = new Date(Date.now() - 30 * 24 * 3_600_000);
    const old = await openCase({ createdAt: monthAgo.toISOString() });
    const detail = await getCase(handle.db, old.publicId);
    expect(detail?.openedAt).toBe(monthAgo.toISOString());
    expect(detail?.verificationCreatedAt).toBe(monthAgo.toISOString());
    expect(detail?.dueAt).toBe(new Date(monthAgo.getTime() + 24 * 3_600_000).toISOString());
    expect(Date.now() - new Date(detail!.firstSeenAt!).getTime()).toBeLessThan(60_000);
    // Oldest first is the verifications' order, and the month-old case is overdue and in the oldest bucket.
    const me = await makeStaff(handle.db, "analyst");
    const oldest = await listQueue(handle.db, { ...QUEUE, age: "over_7d", overdue: "true" }, me.actor.id);
    expect(oldest.items.map((item) => item.publicId)).toContain(old.publicId);
    // A creation time in the future (another clock) never makes a case younger than its first sight.
    const ahead = await openCase({ createdAt: new Date(Date.now() + 3_600_000).toISOString() });
    const aheadCase = await getCase(handle.db, ahead.publicId);
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
    await unreachable(handle.db, {
      event: "verification.review",
      refId: null,
      occurredAt: new Date(),
      deliveryId: "d-age",
      publicId,
      status: "review",
    });
    const firstSight = (await getCase(handle.db, publicId))!;
    const weekAgo = new Date(Date.now() - 7 * 24 * 3_600_000);
    await applyObservations(
      handle.db,
      [observe(makeVerification({ publicId, createdAt: weekAgo.toISOString() }), TEST_SETTINGS)],
      TEST_SETTINGS,
    );
    const learned = (await getCase(handle.db, publicId))!;
    expect(learned.openedAt).toBe(weekAgo.toISOString());
    expect(learned.dueAt).toBe(new Date(weekAgo.getTime() + 24 * 3_600_000).toISOString());
    expect(learned.firstSeenAt).toBe(firstSight.firstSeenAt);
  });
});

function name_suffix(): string {
  return Math.random().toString(36).slice(2, 8);
}

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";

import { timeRange } from "@/lib/audit-trail/filters";
import { cpfHashes, recordEvent, type AuditEvent } from "@/lib/audit-trail/server/record";
import { auditCheckpoints, auditEvents } from "@/lib/audit-trail/server/tables";
import { tamper } from "@/test/audit-trail";
import { describeEachDatabase, stubTestEnvironment, type TestDatabase } from "@/test/db";

import { BrokenChainError, pruneAuditTrail } from "./prune";
import { iterateAuditEvents, listAuditEvents, type AuditEventFilter } from "./query";
import { verifyAuditChain } from "./verify";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

const ANA = { id: "0b0e3a52-9f6d-4d55-9a53-0d7c0f4f1a01", email: "ana@example.com" };
const BRUNO = { id: "0b0e3a52-9f6d-4d55-9a53-0d7c0f4f1a02", email: "bruno@example.com" };
const CPF_A = "52998224725";
const CPF_B = "11144477735";
const BASE = Date.parse("2026-03-10T12:00:00.000Z");
const minutes = (n: number) => new Date(BASE + n * 60_000);

// Twelve events, deliberately out of `at` order by id for two of them (clock skew between instances),
// and two sharing one millisecond (the cursor must neither skip nor repeat one of them).
const EVENTS: Array<AuditEvent & { label: string }> = [
  { label: "e1", actor: ANA, action: "auth.sign_in", outcome: "success", ip: "10.0.0.1", at: minutes(0) },
  {
    label: "e2",
    actor: ANA,
    action: "lookup.cpf",
    target: { type: "cpf", cpf: CPF_A },
    purpose: "onboarding",
    outcome: "success",
    ip: "10.0.0.1",
    at: minutes(1),
  },
  {
    label: "e3",
    actor: BRUNO,
    action: "lookup.cpf",
    target: { type: "cpf", cpf: CPF_B },
    purpose: "fraud check",
    outcome: "failure",
    ip: "10.0.0.2",
    at: minutes(2),
  },
  {
    label: "e4",
    actor: BRUNO,
    action: "verification.view",
    target: { type: "verification", id: "vrf_001" },
    outcome: "success",
    at: minutes(3),
  },
  {
    label: "e5",
    actor: null,
    action: "auth.sign_in",
    outcome: "failure",
    ip: "10.0.0.9",
    details: { reason: "bad_password" },
    at: minutes(4),
  },
  { label: "e6", actor: ANA, action: "kyc.session_create", target: { type: "cpf", cpf: CPF_A }, outcome: "success", at: minutes(5) },
  { label: "e7", actor: BRUNO, action: "audit.view", outcome: "denied", at: minutes(6) },
  {
    label: "e8",
    actor: ANA,
    action: "verification.view",
    target: { type: "verification", id: "vrf_002" },
    outcome: "success",
    at: minutes(8),
  },
  {
    label: "e9",
    actor: ANA,
    action: "verification.view",
    target: { type: "verification", id: "vrf_001" },
    outcome: "success",
    at: minutes(7),
  },
  {
    label: "e10",
    actor: BRUNO,
    action: "lookup.cpf",
    target: { type: "cpf", cpf: CPF_A },
    purpose: "review",
    outcome: "success",
    at: minutes(9),
  },
  { label: "e11", actor: ANA, action: "media.view", target: { type: "verification", id: "vrf_001" }, outcome: "success", at: minutes(9) },
  {
    label: "e12",
    actor: BRUNO,
    action: "integration.create",
    target: { type: "integration_key", id: "key-label" },
    outcome: "success",
    at: minutes(10),
  },
];

describeEachDatabase("audit trail on $name", ({ open }) => {
  /** A database of its own holding EVENTS, and their ids by label. */
  async function seededTrail() {
    const trail = { handle: await open(), idOf: new Map<string, number>(), labelOf: new Map<number, string>() };
    for (const { label, ...event } of EVENTS) {
      const { id } = await recordEvent(event, trail.handle.db);
      trail.idOf.set(label, id);
      trail.labelOf.set(id, label);
    }
    return trail;
  }

  // The reads and the tamper checks share one trail (each tamper check restores what it changed); a test
  // that prunes changes the trail for good, so it seeds one of its own (ownTrail).
  let handle: TestDatabase;
  let idOf: Map<string, number>;
  let labelOf: Map<number, string>;

  beforeAll(async () => {
    ({ handle, idOf, labelOf } = await seededTrail());
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  // Newest first by (at, id); e10 and e11 share a millisecond, so the larger id comes first.
  const ALL_NEWEST_FIRST = ["e12", "e11", "e10", "e8", "e9", "e7", "e6", "e5", "e4", "e3", "e2", "e1"];

  async function labels(filter: AuditEventFilter, limit = 100): Promise<string[]> {
    const page = await listAuditEvents(handle.db, filter, { limit });
    return page.events.map((event) => labelOf.get(event.id)!);
  }

  async function allPages(filter: AuditEventFilter, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 50; guard += 1) {
      const page = await listAuditEvents(handle.db, filter, { limit, cursor });
      seen.push(...page.events.map((event) => labelOf.get(event.id)!));
      if (!page.nextCursor) return seen;
      cursor = page.nextCursor;
    }
    throw new Error("pagination did not end");
  }

  it("lists newest first and pages with a cursor without skipping or repeating an event", async () => {
    expect(await labels({})).toEqual(ALL_NEWEST_FIRST);
    for (const size of [1, 2, 3, 5, 12, 13]) expect(await allPages({}, size)).toEqual(ALL_NEWEST_FIRST);
    const last = await listAuditEvents(handle.db, {}, { limit: 12 });
    expect(last.nextCursor).toBeNull();
  });

  it("filters by actor (email, any case, or staff id), action, outcome, target and target type exactly", async () => {
    expect(await labels({ actor: "ana@example.com" })).toEqual(["e11", "e8", "e9", "e6", "e2", "e1"]);
    expect(await labels({ actor: "BRUNO@Example.com" })).toEqual(["e12", "e10", "e7", "e4", "e3"]);
    expect(await labels({ actor: BRUNO.id })).toEqual(["e12", "e10", "e7", "e4", "e3"]);
    expect(await labels({ actor: "nobody@example.com" })).toEqual([]);
    expect(await labels({ action: "lookup.cpf" })).toEqual(["e10", "e3", "e2"]);
    expect(await labels({ action: "auth.sign_in" })).toEqual(["e5", "e1"]);
    expect(await labels({ outcome: "failure" })).toEqual(["e5", "e3"]);
    expect(await labels({ outcome: "denied" })).toEqual(["e7"]);
    expect(await labels({ target: "vrf_001" })).toEqual(["e11", "e9", "e4"]);
    expect(await labels({ targetType: "verification" })).toEqual(["e11", "e8", "e9", "e4"]);
    expect(await labels({ targetType: "integration_key", target: "key-label" })).toEqual(["e12"]);
    // The stored target of a CPF event is the masked CPF: filtering on it matches, and never the digits.
    expect(await labels({ target: "***.982.247-**" })).toEqual(["e10", "e6", "e2"]);
    expect(await labels({ target: CPF_A })).toEqual([]);
  });

  it("filters by time range: from inclusive, to exclusive, also combined with other filters", async () => {
    expect(await labels({ from: minutes(8), toExclusive: minutes(10) })).toEqual(["e11", "e10", "e8"]);
    expect(await labels({ from: minutes(9) })).toEqual(["e12", "e11", "e10"]);
    expect(await labels({ toExclusive: minutes(2) })).toEqual(["e2", "e1"]);
    expect(await labels({ actor: "ana@example.com", from: minutes(5), toExclusive: minutes(9) })).toEqual(["e8", "e9", "e6"]);
    // A São Paulo wall-clock range (UTC-3): 09:05 to 09:07 local is 12:05 to 12:08 UTC, whole minute included.
    const range = timeRange({ from: "2026-03-10T09:05", to: "2026-03-10T09:07" }, "America/Sao_Paulo");
    expect(await labels(range)).toEqual(["e9", "e7", "e6"]);
    expect(await allPages({ actor: "ana@example.com", from: minutes(1) }, 2)).toEqual(["e11", "e8", "e9", "e6", "e2"]);
  });

  it("searches by CPF through its keyed hash, returning exactly that CPF's events, and shows it masked", async () => {
    const page = await listAuditEvents(handle.db, { targetHashes: cpfHashes(CPF_A) }, { limit: 50 });
    expect(page.events.map((event) => labelOf.get(event.id))).toEqual(["e10", "e6", "e2"]);
    expect(page.events.every((event) => event.target === "***.982.247-**")).toBe(true);
    expect(JSON.stringify(page)).not.toContain(CPF_A);
    expect(await labels({ targetHashes: cpfHashes("529.982.247-25") })).toEqual(["e10", "e6", "e2"]);
    expect(await labels({ targetHashes: cpfHashes(CPF_B) })).toEqual(["e3"]);
    expect(await labels({ targetHashes: cpfHashes(CPF_B), outcome: "success" })).toEqual([]);
    expect(await labels({ targetHashes: cpfHashes(CPF_A), actor: "bruno@example.com" })).toEqual(["e10"]);
    expect(await labels({ targetHashes: cpfHashes("39053344705") })).toEqual([]);
  });

  it("iterates every matching event in batches for the export", async () => {
    const batches: number[][] = [];
    for await (const batch of iterateAuditEvents(handle.db, { actor: "ana@example.com" }, 4)) batches.push(batch.map((row) => row.id));
    expect(batches.map((batch) => batch.length)).toEqual([4, 2]);
    expect(batches.flat().map((id) => labelOf.get(id))).toEqual(["e11", "e8", "e9", "e6", "e2", "e1"]);
  });

  it("refuses a cursor it did not issue", async () => {
    await expect(listAuditEvents(handle.db, {}, { limit: 5, cursor: "bm90LWEtY3Vyc29y" })).rejects.toThrow(/cursor/);
  });

  describe("chain verification", () => {
    // Each tamper check changes the shared trail and restores what it changed before it ends, past the
    // database's refusal (test/audit-trail.ts tamper), as someone with superuser access would have to.
    async function exec(query: ReturnType<typeof sql>) {
      await tamper(handle.db, query);
    }

    /** A seeded trail for the running test alone, disposed of when the test ends. */
    async function ownTrail() {
      const trail = await seededTrail();
      onTestFinished(() => trail.handle.dispose());
      const run = (query: ReturnType<typeof sql>) => tamper(trail.handle.db, query);
      return { ...trail, exec: run };
    }

    it("passes on an untouched chain", async () => {
      const result = await verifyAuditChain(handle.db, { batchSize: 5 });
      expect(result).toMatchObject({
        ok: true,
        checked: EVENTS.length,
        firstEventId: idOf.get("e1"),
        lastEventId: idOf.get("e12"),
        broken: null,
      });
    });

    it("names an edited row as altered", async () => {
      const id = idOf.get("e6")!;
      await exec(sql`update audit_events set purpose = 'covering tracks' where id = ${id}`);
      const result = await verifyAuditChain(handle.db, { batchSize: 5 });
      expect(result.ok).toBe(false);
      expect(result.broken).toMatchObject({ reason: "altered", eventId: id, action: "kyc.session_create" });
      expect(result.broken?.message).toContain(`event #${id}`);
      await exec(sql`update audit_events set purpose = null where id = ${id}`);
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);
    });

    it("names an edited timestamp, outcome, detail or hash", async () => {
      const id = idOf.get("e5")!;
      for (const [change, undo] of [
        [
          sql`update audit_events set at = at + interval '1 second' where id = ${id}`,
          sql`update audit_events set at = at - interval '1 second' where id = ${id}`,
        ],
        [
          sql`update audit_events set outcome = 'success' where id = ${id}`,
          sql`update audit_events set outcome = 'failure' where id = ${id}`,
        ],
        [
          sql`update audit_events set details = '{"reason":"ok"}' where id = ${id}`,
          sql`update audit_events set details = '{"reason":"bad_password"}' where id = ${id}`,
        ],
      ] as const) {
        await exec(change);
        expect((await verifyAuditChain(handle.db)).broken).toMatchObject({ reason: "altered", eventId: id });
        await exec(undo);
      }
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);
    });

    it("names the event after a deleted row", async () => {
      const deleted = idOf.get("e4")!;
      const [saved] = await handle.db
        .select()
        .from(auditEvents)
        .where(sql`id = ${deleted}`);
      await exec(sql`delete from audit_events where id = ${deleted}`);
      const result = await verifyAuditChain(handle.db, { batchSize: 2 });
      expect(result.broken).toMatchObject({ reason: "missing_before", eventId: idOf.get("e5"), previousEventId: idOf.get("e3") });
      expect(result.checked).toBe(3);
      await handle.db.insert(auditEvents).values(saved!);
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);
    });

    it("checks a head noted earlier, which is how removing the newest events shows", async () => {
      const noted = await verifyAuditChain(handle.db);
      const head = { id: noted.lastEventId!, hash: noted.lastHash! };
      expect(head.id).toBe(idOf.get("e12"));
      expect((await verifyAuditChain(handle.db, { expectHead: head })).ok).toBe(true);
      const [saved] = await handle.db
        .select()
        .from(auditEvents)
        .where(sql`id = ${head.id}`);
      await exec(sql`delete from audit_events where id = ${head.id}`);
      // Nothing after the cut points back at it, but ids are gapless: the count of events appended names the cut.
      expect((await verifyAuditChain(handle.db)).broken).toMatchObject({
        reason: "tail_missing",
        eventId: head.id,
        missingIds: { from: head.id, to: head.id },
      });
      const cut = await verifyAuditChain(handle.db, { expectHead: head });
      expect(cut.broken).toMatchObject({ reason: "head_missing", eventId: head.id });
      expect(cut.broken?.message).toContain("newest events were removed");
      await handle.db.insert(auditEvents).values(saved!);
      expect((await verifyAuditChain(handle.db, { expectHead: { ...head, hash: "f".repeat(64) } })).broken).toMatchObject({
        reason: "head_missing",
      });
    });

    it("names the first event when the oldest ones were deleted without a checkpoint", async () => {
      const first = idOf.get("e1")!;
      const [saved] = await handle.db
        .select()
        .from(auditEvents)
        .where(sql`id = ${first}`);
      await exec(sql`delete from audit_events where id = ${first}`);
      expect((await verifyAuditChain(handle.db)).broken).toMatchObject({
        reason: "missing_before",
        eventId: idOf.get("e2"),
        previousEventId: null,
      });
      await handle.db.insert(auditEvents).values(saved!);
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);
    });

    it("refuses to prune a broken chain, which could erase the evidence, unless told to", async () => {
      const id = idOf.get("e2")!;
      await exec(sql`update audit_events set purpose = 'nothing to see' where id = ${id}`);
      const now = new Date(minutes(8).getTime() + 3 * 86_400_000);
      await expect(pruneAuditTrail(handle.db, { retentionDays: 3, now })).rejects.toBeInstanceOf(BrokenChainError);
      await expect(pruneAuditTrail(handle.db, { retentionDays: 3, now, dryRun: true })).rejects.toThrow(`event #${id}`);
      expect(await handle.db.$count(auditEvents)).toBe(EVENTS.length);
      expect(await pruneAuditTrail(handle.db, { retentionDays: 3, now, dryRun: true, allowBrokenChain: true })).toMatchObject({
        removed: 7,
      });
      await exec(sql`update audit_events set purpose = 'onboarding' where id = ${id}`);
    });

    it("prunes the events older than the retention period, then still verifies; a forged checkpoint does not", async () => {
      const { handle, idOf, labelOf, exec } = await ownTrail();
      // "Now" is 3 days after e8 (minute 8), so the cutoff is minute 8. e9 (minute 7) is older than that but
      // was written after e8: the cut is a prefix by id, so it ends just before e8 and e9 is kept.
      const now = new Date(minutes(8).getTime() + 3 * 86_400_000);
      const dry = await pruneAuditTrail(handle.db, { retentionDays: 3, now, dryRun: true });
      expect(dry).toMatchObject({ removed: 7, throughEventId: idOf.get("e7"), checkpointId: null });
      expect(await handle.db.$count(auditEvents)).toBe(EVENTS.length);

      const result = await pruneAuditTrail(handle.db, { retentionDays: 3, now });
      expect(result).toMatchObject({ removed: 7, throughEventId: idOf.get("e7"), retentionDays: 3 });
      const remaining = await handle.db
        .select({ id: auditEvents.id, action: auditEvents.action })
        .from(auditEvents)
        .orderBy(auditEvents.id);
      expect(remaining.map((row) => labelOf.get(row.id) ?? row.action)).toEqual(["e8", "e9", "e10", "e11", "e12", "audit.prune"]);

      const verified = await verifyAuditChain(handle.db);
      expect(verified).toMatchObject({
        ok: true,
        checked: 6,
        firstEventId: idOf.get("e8"),
        checkpoint: { id: result.checkpointId, throughEventId: idOf.get("e7"), removedCount: 7 },
      });

      // A head noted before the prune, now under the checkpoint, is accounted for.
      expect((await verifyAuditChain(handle.db, { expectHead: { id: idOf.get("e3")!, hash: "0".repeat(64) } })).ok).toBe(true);
      const [cp] = await handle.db
        .select()
        .from(auditCheckpoints)
        .where(sql`kind = 'prune'`);
      expect((await verifyAuditChain(handle.db, { expectHead: { id: cp!.throughEventId, hash: cp!.throughEventHash } })).ok).toBe(true);
      expect((await verifyAuditChain(handle.db, { expectHead: { id: cp!.throughEventId, hash: "0".repeat(64) } })).ok).toBe(false);

      // Nothing more is old enough: a second prune removes nothing and writes no checkpoint.
      expect(await pruneAuditTrail(handle.db, { retentionDays: 3, now })).toMatchObject({ removed: 0, checkpointId: null });

      // Deleting further without the key: the checkpoint no longer matches the first event left.
      const [saved] = await handle.db
        .select()
        .from(auditEvents)
        .where(sql`id = ${idOf.get("e8")!}`);
      await exec(sql`delete from audit_events where id = ${idOf.get("e8")!}`);
      expect((await verifyAuditChain(handle.db)).broken).toMatchObject({ reason: "missing_before", eventId: idOf.get("e9") });
      await handle.db.insert(auditEvents).values(saved!);

      // A checkpoint edited (or written by someone without the key) is refused.
      await exec(sql`update audit_checkpoints set removed_count = 1 where id = ${result.checkpointId}`);
      expect((await verifyAuditChain(handle.db)).broken).toMatchObject({ reason: "checkpoint_forged", checkpointId: result.checkpointId });
      await exec(sql`update audit_checkpoints set removed_count = 7 where id = ${result.checkpointId}`);
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);
      // The retention checkpoint, and the head checkpoint signed after the prune's own record.
      expect(
        (await handle.db.select({ kind: auditCheckpoints.kind }).from(auditCheckpoints).orderBy(auditCheckpoints.id)).map(
          (row) => row.kind,
        ),
      ).toEqual(["prune", "head"]);
    });

    it("always keeps the newest event, so writers still have something to chain to", async () => {
      const { handle } = await ownTrail();
      const farFuture = new Date(BASE + 1000 * 86_400_000);
      const result = await pruneAuditTrail(handle.db, { retentionDays: 1, now: farFuture });
      expect(result.removed).toBe(EVENTS.length - 1);
      // Left: the newest event, then this prune's own record.
      expect(await handle.db.$count(auditEvents)).toBe(2);
      const after = await recordEvent({ actor: ANA, action: "auth.sign_in", outcome: "success" }, handle.db);
      expect(after.id).toBeGreaterThan(0);
      expect(await verifyAuditChain(handle.db)).toMatchObject({ ok: true, checked: 3 });
    });
  });
});

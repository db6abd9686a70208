import { desc, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";

import { appendChained } from "@/lib/audit-trail/server/group-commit";
import { auditCheckpoints, auditEvents } from "@/lib/audit-trail/server/tables";
import { singleKeyRing } from "@/lib/keys/ring";
import { tamper } from "@/test/audit-trail";
import { describeEachDatabase, TEST_SECRETS, withTestEnvironment } from "@/test/db";

import { anchorAuditHead, signCheckpoint } from "./checkpoint";
import { chainSigner, computeEventHash, GENESIS_HASH, recordEvent, type ChainedFields } from "./record";
import { verifyAuditChain, type BreakReason } from "./verify";

/*
 * The chain proves itself: every hashed field of an event, changed in the stored row, is reported by the
 * verifier behind `npm run audit:verify`; the hash is pinned by a known-answer vector; a wrong key, an event
 * forged at the end and a cut-off tail are all reported. Tampering goes past the database's refusal the way
 * someone with superuser access would have to (test/audit-trail.ts `tamper`).
 */

withTestEnvironment();

// The fields computeEventHash (record.ts) covers, in its order, after the previous hash: at, actor_id,
// actor_email, action, target_type, target, target_hash, purpose, outcome, ip, details. The stored row adds
// prev_hash (the link) and hash (the HMAC itself).
const KNOWN_FIELDS: ChainedFields = {
  at: new Date("2026-01-02T03:04:05.678Z"),
  actorId: "0b0e3a52-9f6d-4d55-9a53-0d7c0f4f1a01",
  actorEmail: "ana@example.com",
  action: "lookup.cpf",
  targetType: "cpf",
  target: "***.982.247-**",
  targetHash: "b".repeat(64),
  purpose: "onboarding",
  outcome: "success",
  ip: "10.0.0.1",
  // Written in reverse order on purpose: the hash sorts the keys.
  details: { reason: "ok", count: 3 },
};
const KNOWN_KEY = "known-answer-test-key";
/*
 * Computed once outside this code base, from the hash's specification (record.ts computeEventHash), with Python:
 *
 *   payload = "audit-chain-v1\n" + json.dumps(
 *       ["0" * 64, "2026-01-02T03:04:05.678Z", "0b0e3a52-9f6d-4d55-9a53-0d7c0f4f1a01", "ana@example.com",
 *        "lookup.cpf", "cpf", "***.982.247-**", "b" * 64, "onboarding", "success", "10.0.0.1",
 *        {"count": 3, "reason": "ok"}], separators=(",", ":"), ensure_ascii=False)
 *   hmac.new(b"known-answer-test-key", payload.encode(), hashlib.sha256).hexdigest()
 *
 * i.e. HMAC-SHA256 under the audit key over a label line, then the JSON array (no spaces) of the previous hash
 * (genesis: 64 zeros), the ISO timestamp with milliseconds, the ten other fields in order (null when absent), and
 * the details with their keys sorted. Any change to the hashing breaks this test, and old chains with it.
 */
const KNOWN_HASH = "e046dd28e2f9b5c68b812440a7b4cd75ba78d3a4840b5b3931b100da04405490";
/*
 * An event recorded under a connection: the same array with the connection's id as its last element,
 *
 *   json.dumps([...as above..., {"count": 3, "reason": "ok"}, "production"], separators=(",", ":"), ensure_ascii=False)
 *
 * (computed the same way, outside this code base). Without a connection the array is unchanged: KNOWN_HASH holds.
 */
const KNOWN_CONNECTION_HASH = "245391175816971272948f6101d13e228355532953b0d80f644bf894170efa16";

describe("the audit chain's hash", () => {
  it("matches the known-answer vector", () => {
    expect(computeEventHash(GENESIS_HASH, KNOWN_FIELDS, KNOWN_KEY)).toBe(KNOWN_HASH);
  });

  it("matches the known-answer vector of an event recorded under a connection, and depends on the connection", () => {
    expect(computeEventHash(GENESIS_HASH, { ...KNOWN_FIELDS, connectionId: "production" }, KNOWN_KEY)).toBe(KNOWN_CONNECTION_HASH);
    expect(computeEventHash(GENESIS_HASH, { ...KNOWN_FIELDS, connectionId: "primary" }, KNOWN_KEY)).not.toBe(KNOWN_CONNECTION_HASH);
    // None, null or absent: the hash events had before connections existed.
    expect(computeEventHash(GENESIS_HASH, { ...KNOWN_FIELDS, connectionId: null }, KNOWN_KEY)).toBe(KNOWN_HASH);
  });

  it("depends on the key and on every field", () => {
    expect(computeEventHash(GENESIS_HASH, KNOWN_FIELDS, `${KNOWN_KEY}!`)).not.toBe(KNOWN_HASH);
    expect(computeEventHash("1".repeat(64), KNOWN_FIELDS, KNOWN_KEY)).not.toBe(KNOWN_HASH);
    for (const field of Object.keys(KNOWN_FIELDS) as Array<keyof ChainedFields>) {
      const changed = {
        ...KNOWN_FIELDS,
        [field]: field === "at" ? new Date(KNOWN_FIELDS.at.getTime() + 1) : field === "details" ? {} : null,
      };
      expect(computeEventHash(GENESIS_HASH, changed, KNOWN_KEY), field).not.toBe(KNOWN_HASH);
    }
  });
});

describeEachDatabase("the audit chain proves itself on $name", ({ open }) => {
  let handle: Awaited<ReturnType<typeof open>>;
  let id: number;

  beforeAll(async () => {
    handle = await open();
    await recordEvent({ actor: null, action: "auth.sign_in", outcome: "failure", ip: "10.0.0.9" }, handle.db);
    // One event with every field set, between two others.
    const [written] = await appendChained(handle.db, [{ ...KNOWN_FIELDS, at: new Date() }], chainSigner());
    id = written!.id;
    await recordEvent({ actor: null, action: "auth.sign_out", outcome: "success" }, handle.db);
    expect((await verifyAuditChain(handle.db)).ok).toBe(true);
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  async function brokenBy(change: SQL, undo: SQL): Promise<{ reason: BreakReason; eventId: number | null }> {
    await tamper(handle.db, change);
    try {
      const result = await verifyAuditChain(handle.db);
      expect(result.ok).toBe(false);
      return { reason: result.broken!.reason, eventId: result.broken!.eventId };
    } finally {
      await tamper(handle.db, undo);
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);
    }
  }

  // [column, a tampered value, its original value], for every hashed field.
  const TAMPERED: Array<[string, SQL, SQL]> = [
    ["at", sql`at + interval '1 millisecond'`, sql`at - interval '1 millisecond'`],
    ["actor_id", sql`'0b0e3a52-9f6d-4d55-9a53-0d7c0f4f1a09'`, sql`${KNOWN_FIELDS.actorId}`],
    ["actor_email", sql`'mallory@example.com'`, sql`${KNOWN_FIELDS.actorEmail}`],
    ["action", sql`'lookup.cpf_history'`, sql`${KNOWN_FIELDS.action}`],
    ["target_type", sql`'phone'`, sql`${KNOWN_FIELDS.targetType}`],
    ["target", sql`'***.000.000-**'`, sql`${KNOWN_FIELDS.target}`],
    ["target_hash", sql`${"c".repeat(64)}`, sql`${KNOWN_FIELDS.targetHash}`],
    ["purpose", sql`'covering tracks'`, sql`${KNOWN_FIELDS.purpose}`],
    ["outcome", sql`'denied'`, sql`${KNOWN_FIELDS.outcome}`],
    ["ip", sql`'10.9.9.9'`, sql`${KNOWN_FIELDS.ip}`],
    ["details", sql`'{"count":4,"reason":"ok"}'::jsonb`, sql`'{"count":3,"reason":"ok"}'::jsonb`],
  ];

  it.each(TAMPERED)("reports an event whose %s was changed as altered", async (column, value, original) => {
    const set = (to: SQL) => sql`update audit_events set ${sql.identifier(column)} = ${to} where id = ${id}`;
    expect(await brokenBy(set(value), set(original))).toEqual({ reason: "altered", eventId: id });
  });

  it.each(TAMPERED.filter(([column]) => !["at", "action", "outcome", "details"].includes(column)))(
    "reports an event whose %s was removed (set to null) as altered",
    async (column, _value, original) => {
      const set = (to: SQL) => sql`update audit_events set ${sql.identifier(column)} = ${to} where id = ${id}`;
      expect(await brokenBy(set(sql`null`), set(original))).toEqual({ reason: "altered", eventId: id });
    },
  );

  it("reports a changed link (prev_hash) and a changed hash", async () => {
    const [row] = await handle.db
      .select()
      .from(auditEvents)
      .where(sql`id = ${id}`);
    const setPrev = (to: string) => sql`update audit_events set prev_hash = ${to} where id = ${id}`;
    expect(await brokenBy(setPrev("d".repeat(64)), setPrev(row!.prevHash))).toEqual({ reason: "missing_before", eventId: id });
    const setHash = (to: string) => sql`update audit_events set hash = ${to} where id = ${id}`;
    expect(await brokenBy(setHash("e".repeat(64)), setHash(row!.hash))).toEqual({ reason: "altered", eventId: id });
  });

  it("accepts the known-answer event as stored, and reports a wrong key", async () => {
    const own = await open();
    onTestFinished(() => own.dispose());
    await own.db.insert(auditEvents).values({ ...KNOWN_FIELDS, prevHash: GENESIS_HASH, hash: KNOWN_HASH });
    expect(await verifyAuditChain(own.db, { ring: singleKeyRing(KNOWN_KEY) })).toMatchObject({
      ok: true,
      checked: 1,
      lastHash: KNOWN_HASH,
    });
    expect((await verifyAuditChain(own.db)).broken).toMatchObject({ reason: "altered" });
    // The trail written under the configured key fails under any other.
    expect((await verifyAuditChain(handle.db, { ring: singleKeyRing(`${TEST_SECRETS.AUDIT_HASH_SECRET}-wrong`) })).broken).toMatchObject({
      reason: "altered",
    });
  });

  describe("the end of the chain, anchored in signed head checkpoints", () => {
    async function anchoredTrail() {
      const own = await open();
      onTestFinished(() => own.dispose());
      const ids: number[] = [];
      for (const action of ["auth.sign_in", "verification.view", "verification.view", "auth.sign_out"]) {
        ids.push((await recordEvent({ actor: null, action, outcome: "success" }, own.db)).id);
      }
      const anchor = await anchorAuditHead(own.db);
      expect(anchor).toMatchObject({ throughEventId: ids.at(-1) });
      expect(await verifyAuditChain(own.db)).toMatchObject({ ok: true, checked: 4 });
      return { db: own.db, ids, anchor: anchor! };
    }

    it("reports an event forged at the end with a wrong key", async () => {
      const { db } = await anchoredTrail();
      const [forged] = await appendChained(
        db,
        [{ ...KNOWN_FIELDS, at: new Date() }],
        chainSigner({ id: "1", secret: "not-the-audit-key" }),
      );
      expect((await verifyAuditChain(db)).broken).toMatchObject({ reason: "altered", eventId: forged!.id });
    });

    it("reports a tail cut off after the signed head, even when new events are chained on properly", async () => {
      const { db, ids, anchor } = await anchoredTrail();
      await tamper(db, sql`delete from audit_events where id >= ${ids[2]!}`);
      const cut = await verifyAuditChain(db);
      expect(cut.broken).toMatchObject({ reason: "head_missing", eventId: anchor.throughEventId, checkpointId: anchor.id });
      expect(cut.broken?.message).toContain("newest events were removed");
      // Appending after the cut with the right key does not hide it: the signed head is still missing.
      await recordEvent({ actor: null, action: "auth.sign_in", outcome: "success" }, db);
      expect((await verifyAuditChain(db)).broken).toMatchObject({ reason: "head_missing", eventId: anchor.throughEventId });
    });

    it("reports a tail rewritten under a wrong key, under either key", async () => {
      const { db, ids, anchor } = await anchoredTrail();
      const [last] = await db.select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
      const rehashed = computeEventHash(
        last!.prevHash,
        { ...last!, purpose: "covering tracks", details: last!.details },
        "not-the-audit-key",
      );
      await tamper(db, sql`update audit_events set purpose = 'covering tracks', hash = ${rehashed} where id = ${ids.at(-1)!}`);
      expect((await verifyAuditChain(db)).broken).toMatchObject({ reason: "altered", eventId: anchor.throughEventId });
      // Under the forger's key instead, the chain fails from its first event, and the signed head with it.
      expect((await verifyAuditChain(db, { ring: singleKeyRing("not-the-audit-key") })).broken).toMatchObject({
        reason: "checkpoint_forged",
      });
    });

    it("reports a head checkpoint forged without the key, or altered", async () => {
      const { db, ids } = await anchoredTrail();
      const [last] = await db.select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
      const fields = {
        kind: "head" as const,
        createdAt: new Date(),
        throughEventId: ids.at(-1)! + 5,
        throughEventHash: last!.hash,
        throughEventAt: last!.at,
        removedCount: 0,
        cutoff: new Date(),
        retentionDays: 0,
      };
      const [forged] = await db
        .insert(auditCheckpoints)
        .values({ ...fields, signature: signCheckpoint(fields, "not-the-audit-key") })
        .returning({ id: auditCheckpoints.id });
      expect((await verifyAuditChain(db)).broken).toMatchObject({ reason: "checkpoint_forged", checkpointId: forged!.id });
      // The same fields signed with the key, but relabelled as a retention checkpoint: the kind is signed too.
      await tamper(db, sql`update audit_checkpoints set signature = ${signCheckpoint(fields)}, kind = 'prune' where id = ${forged!.id}`);
      expect((await verifyAuditChain(db)).broken).toMatchObject({ reason: "checkpoint_forged", checkpointId: forged!.id });
    });
  });
});

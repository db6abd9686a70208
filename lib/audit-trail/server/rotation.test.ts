import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { auditCheckpoints, auditEvents } from "@/lib/audit-trail/server/tables";
import { config } from "@/lib/config";
import { parseKeyRing, singleKeyRing } from "@/lib/keys/ring";
import { tamper } from "@/test/audit-trail";
import { describeEachDatabase, setProcessDatabase, stubTestEnvironment, TEST_SECRETS } from "@/test/db";

import { anchorAuditHead } from "./checkpoint";
import { appendChained } from "./group-commit";
import { pruneAuditTrail } from "./prune";
import { listAuditEvents } from "./query";
import { chainSigner, cpfHash, cpfHashes, recordEvent } from "./record";
import { exportAuditCheckpoints } from "./service";
import { verifyAuditChain } from "./verify";

/*
 * Rotating the audit key (AUDIT_HASH_SECRET's ring): events and checkpoints are made under the ring's current key
 * and keep its id; each is verified under the key its id names, so a chain made under two keys verifies while the
 * ring holds both; a CPF is searched under every key; a key dropped while events under it remain is named, never
 * taken for tampering.
 */

const OLD = TEST_SECRETS.AUDIT_HASH_SECRET;
const NEW = "rotated-audit-key-0123456789abcdefghijkl";
const CPF = "529.982.247-25";
const DAY = 86_400_000;
const viewer = { actor: { id: "0b0e3a52-9f6d-4d55-9a53-0d7c0f4f1a01", email: "ana@example.com" }, ip: "10.0.0.1" };

/** The configuration after the rotation's first step: the new key first, the old one (a plain value, id "1") kept. */
const rotate = () => stubTestEnvironment({ AUDIT_HASH_SECRET: `2:${NEW},1:${OLD}` });

beforeEach(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

describe("CPF hashes across a rotation", () => {
  it("are made under the current key and searched under every key of the ring", () => {
    const before = cpfHash(CPF);
    expect(cpfHashes(CPF)).toEqual([before]);
    rotate();
    expect(cpfHash(CPF)).not.toBe(before);
    expect(cpfHashes(CPF)).toEqual([cpfHash(CPF), before]);
    expect(cpfHashes(CPF, parseKeyRing(`2:${NEW}`))).toEqual([cpfHash(CPF)]);
  });
});

describeEachDatabase("rotating the audit key on $name", ({ open }) => {
  async function rotatedTrail() {
    const handle = await open();
    const ids: number[] = [];
    const write = async (action: string, at = new Date()) =>
      ids.push((await recordEvent({ ...viewer, action, target: { type: "cpf", cpf: CPF }, outcome: "success", at }, handle.db)).id);
    await write("lookup.cpf_receita", new Date(Date.now() - 10 * DAY));
    await write("kyc.session_start", new Date(Date.now() - 9 * DAY));
    rotate();
    await write("lookup.cpf_history");
    await write("sms.send");
    return { handle, ids };
  }

  // Opened, migrated and written in a hook: under load the set-up alone can outlast a test's time limit.
  let trail: Awaited<ReturnType<typeof rotatedTrail>>;
  beforeEach(async () => {
    trail = await rotatedTrail();
  });
  afterEach(async () => {
    await trail.handle.dispose();
  });

  it("chains new events under the new key id, verifies both keys' events, and finds the CPF's events under both", async () => {
    const { handle, ids } = trail;
    const rows = await handle.db.select().from(auditEvents).orderBy(auditEvents.id);
    expect(rows.map((row) => row.keyId)).toEqual(["1", "1", "2", "2"]);
    // Each event's CPF hash is under its own key.
    expect(rows.map((row) => row.targetHash)).toEqual([cpfHash(CPF, OLD), cpfHash(CPF, OLD), cpfHash(CPF, NEW), cpfHash(CPF, NEW)]);
    expect(await verifyAuditChain(handle.db)).toMatchObject({ ok: true, checked: 4, unknownKeys: [] });

    const page = await listAuditEvents(handle.db, { targetHashes: cpfHashes(CPF) }, { limit: 10 });
    expect(page.events.map((event) => event.id).sort()).toEqual([...ids].sort());
    // Under the new key alone, only what was written after the rotation.
    const newOnly = await listAuditEvents(handle.db, { targetHashes: [cpfHash(CPF)] }, { limit: 10 });
    expect(newOnly.events.map((event) => event.id).sort()).toEqual(ids.slice(2).sort());
  });

  it("signs checkpoints with the new key, keeps its id, verifies each by its own key and exports the id", async () => {
    const { handle } = trail;
    const pruned = await pruneAuditTrail(handle.db, { before: new Date(Date.now() - 9.5 * DAY) });
    expect(pruned).toMatchObject({ removed: 1 });
    const checkpoints = await handle.db.select().from(auditCheckpoints).orderBy(auditCheckpoints.id);
    expect(checkpoints.map((row) => [row.kind, row.keyId])).toEqual([
      ["prune", "2"],
      ["head", "2"],
    ]);
    expect(await verifyAuditChain(handle.db)).toMatchObject({ ok: true, checkpoint: { throughEventId: pruned.throughEventId } });
    // The export's own record goes to the process database (the audited-action helper).
    setProcessDatabase(handle);
    const exported = await exportAuditCheckpoints(handle.db, viewer);
    setProcessDatabase(undefined);
    expect(exported.checkpoints.map((row) => row.keyId)).toEqual(["2", "2"]);

    // A checkpoint signed under the old key (before the rotation) still verifies by that key.
    const [head] = await handle.db
      .select()
      .from(auditEvents)
      .orderBy(sql`id desc`)
      .limit(1);
    const older = await anchorAuditHead(handle.db, { key: { id: "1", secret: OLD }, verified: { id: head!.id, hash: head!.hash } });
    expect(older).not.toBeNull();
    expect((await verifyAuditChain(handle.db)).ok).toBe(true);
  });

  it("names the key when the old one leaves the ring while events under it remain, never calling it tampering", async () => {
    const { handle, ids } = trail;
    const withoutOld = await verifyAuditChain(handle.db, { ring: parseKeyRing(`2:${NEW}`) });
    expect(withoutOld.ok).toBe(false);
    expect(withoutOld.broken).toMatchObject({ reason: "key_unknown", keyId: "1", eventId: ids[0] });
    expect(withoutOld.broken!.message).toContain(`audit key "1"`);
    expect(withoutOld.broken!.message).toContain(`#${ids[0]}`);
    expect(withoutOld.broken!.message).not.toMatch(/altered|forged|cut off|newest events were removed/);
    expect(withoutOld.unknownKeys).toEqual([{ keyId: "1", firstEventId: ids[0], events: 2 }]);
    // The events the ring can check are checked all the same: one altered under the new key is reported as such.
    await tamper(handle.db, sql`update audit_events set purpose = 'covering tracks' where id = ${ids[3]!}`);
    expect((await verifyAuditChain(handle.db, { ring: parseKeyRing(`2:${NEW}`) })).broken).toMatchObject({
      reason: "altered",
      eventId: ids[3],
    });
  });

  it("detects a wrong key: a ring whose key has the right id but another secret, or lacks the new key", async () => {
    const { handle, ids } = trail;
    const wrongOld = await verifyAuditChain(handle.db, { ring: parseKeyRing(`2:${NEW},1:${OLD}-wrong`) });
    expect(wrongOld.broken).toMatchObject({ reason: "altered", eventId: ids[0] });
    const wrongNew = await verifyAuditChain(handle.db, { ring: parseKeyRing(`2:${NEW}-wrong,1:${OLD}`) });
    expect(wrongNew.broken).toMatchObject({ reason: "altered", eventId: ids[2] });
    // An instance still on the old ring (the rotation half done) names the new key rather than failing silently.
    const oldRing = await verifyAuditChain(handle.db, { ring: singleKeyRing(OLD) });
    expect(oldRing.broken).toMatchObject({ reason: "key_unknown", keyId: "2", eventId: ids[2] });
  });

  it("detects an event forged at the end after the rotation, under a wrong key or by cutting the signed head", async () => {
    const { handle, ids } = trail;
    const anchor = await anchorAuditHead(handle.db);
    expect(anchor).toMatchObject({ throughEventId: ids[3] });
    const [forged] = await appendChained(
      handle.db,
      [
        {
          at: new Date(),
          actorId: null,
          actorEmail: null,
          action: "auth.sign_in",
          targetType: null,
          target: null,
          targetHash: null,
          purpose: null,
          outcome: "success",
          ip: null,
          details: {},
        },
      ],
      chainSigner({ id: "2", secret: "not-the-audit-key-0123456789abcdef" }),
    );
    expect((await verifyAuditChain(handle.db)).broken).toMatchObject({ reason: "altered", eventId: forged!.id });
    // Cutting the signed head off and chaining a new event properly does not hide it either.
    await tamper(handle.db, sql`delete from audit_events where id >= ${ids[3]!}`);
    await recordEvent({ actor: null, action: "auth.sign_in", outcome: "success" }, handle.db);
    expect((await verifyAuditChain(handle.db)).broken).toMatchObject({ reason: "head_missing", eventId: ids[3] });
  });

  it("names a checkpoint signed under a key the ring lacks", async () => {
    const { handle } = trail;
    const anchor = await anchorAuditHead(handle.db);
    expect(config().secrets.auditHash.current.id).toBe("2");
    const result = await verifyAuditChain(handle.db, { ring: singleKeyRing(OLD) });
    expect(result.broken).toMatchObject({ reason: "key_unknown", keyId: "2", checkpointId: anchor!.id });
  });
});

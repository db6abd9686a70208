import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";

import { cpfHash, cpfHashes, recordEvent } from "@/lib/audit-trail/server";
import { listAuditEvents } from "@/lib/audit-trail/server/query";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { verifyAuditChain } from "@/lib/audit-trail/server/verify";
import { verificationIndex } from "@/lib/cases/server/tables";
import { parseKeyRing } from "@/lib/keys/ring";
import { setLogSink } from "@/lib/log";
import type { Verification } from "@/lib/upstream/model/verification";
import { describeEachDatabase, stubTestEnvironment, TEST_SECRETS } from "@/test/db";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";
import { testConfig, testCoreClient } from "@/test/verifications";

import { countStaleIndexEntries, rekeySearchIndex, type RekeyClient } from "./rekey";
import { indexVerifications, searchVerifications } from "./search";

/*
 * After an audit key rotation the search index still finds what was indexed under the old key (a CPF is searched
 * under every key of the ring), and the background job moves those entries to the new key by reading their
 * verification again from the service (the sandbox here), after which the old key can leave the ring as far as
 * the index goes. One instance runs it at a time.
 */

const OLD = TEST_SECRETS.AUDIT_HASH_SECRET;
const NEW = "rotated-audit-key-0123456789abcdefghijkl";
// A public id of the right shape that the sandbox does not hold: its verification is gone.
const GONE = "5b0b6f64-5a43-4f0e-9d5c-2f4f4b0b4c11";

let sandbox: SandboxHandle;
let unmasked: RekeyClient;
let masked: RekeyClient;
let people: Verification[];

beforeAll(async () => {
  setLogSink(() => undefined);
  sandbox = await startSandbox();
  const cfg = testConfig(sandbox.url);
  unmasked = testCoreClient(cfg, { apiKey: "sbx_core_unmasked" });
  masked = testCoreClient(cfg, { apiKey: "sbx_core_view" });
  const list = await testCoreClient(cfg, { apiKey: "sbx_core_unmasked" }).listVerifications({ per_page: 20 });
  // Three verifications of three different people.
  const seen = new Set<string>();
  people = list.items.filter((item) => !seen.has(item.document) && seen.add(item.document)).slice(0, 3);
  expect(people).toHaveLength(3);
});
afterAll(async () => {
  setLogSink(undefined);
  vi.unstubAllEnvs();
  await sandbox?.stop();
});
beforeEach(() => stubTestEnvironment());

/** The unmasked client, except for one verification the service shows masked (a key without that permission). */
function clientMasking(publicId: string): RekeyClient {
  return { getVerification: (id, signal) => (id === publicId ? masked : unmasked).getVerification(id, signal) };
}

describeEachDatabase("re-keying the search index after an audit key rotation on $name", ({ open }) => {
  /** Index entries and an audit event made under the old key (the configuration's single key, id "1"). */
  async function indexedBeforeRotation() {
    const handle = await open();
    await indexVerifications(handle.db, [
      ...people.map((person) => ({ publicId: person.publicId, cpf: person.document })),
      { publicId: GONE, cpf: people[0]!.document },
    ]);
    await recordEvent(
      { actor: null, action: "lookup.cpf_receita", target: { type: "cpf", cpf: people[0]!.document }, outcome: "success" },
      handle.db,
    );
    stubTestEnvironment({ AUDIT_HASH_SECRET: `2:${NEW},1:${OLD}` });
    return handle;
  }

  const keyIds = async (db: Awaited<ReturnType<typeof open>>["db"]) =>
    Object.fromEntries(
      (await db.select({ publicId: verificationIndex.publicId, keyId: verificationIndex.cpfKeyId }).from(verificationIndex)).map((row) => [
        row.publicId,
        row.keyId,
      ]),
    );

  it("finds old-key entries and events by CPF, moves the entries to the new key, then finds them without the old key", async () => {
    const handle = await indexedBeforeRotation();
    try {
      const [first, second, third] = people as [Verification, Verification, Verification];
      // After the rotation, before any re-keying: found under the old key's hash.
      expect((await searchVerifications(handle.db, { cpf: second.document }, "primary")).map((hit) => hit.publicId)).toEqual([
        second.publicId,
      ]);
      const events = await listAuditEvents(handle.db, { targetHashes: cpfHashes(first.document) }, { limit: 10 });
      expect(events.events.map((event) => event.action)).toEqual(["lookup.cpf_receita"]);
      expect(await countStaleIndexEntries(handle.db)).toBe(4);

      const report = await rekeySearchIndex(handle.db, { client: clientMasking(third.publicId), holder: "instance-a", batch: 10 });
      expect(report).toEqual({ ran: true, keyId: "2", read: 4, rekeyed: 2, dropped: 1, masked: 1, failed: 0, remaining: 1 });
      expect(await keyIds(handle.db)).toEqual({ [first.publicId]: "2", [second.publicId]: "2", [third.publicId]: "1" });
      const [row] = await handle.db.select().from(verificationIndex).where(eq(verificationIndex.publicId, second.publicId));
      expect(row!.cpfHash).toBe(cpfHash(second.document, NEW));
      // The run is one event with its counts.
      const [event] = await handle.db.select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
      expect(event).toMatchObject({
        action: "search.rekey",
        outcome: "success",
        keyId: "2",
        details: { key_id: "2", read: 4, rekeyed: 2, dropped: 1, masked: 1, failed: 0, remaining: 1, batch: 10 },
      });
      // The chain, made under both keys, verifies with the rotated ring.
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);

      // The old key leaves the ring: the re-keyed entries are still found, the one left under it no longer.
      stubTestEnvironment({ AUDIT_HASH_SECRET: `2:${NEW}` });
      expect((await searchVerifications(handle.db, { cpf: first.document }, "primary")).map((hit) => hit.publicId)).toEqual([
        first.publicId,
      ]);
      expect(await searchVerifications(handle.db, { cpf: third.document }, "primary")).toEqual([]);
      // While events under it remain, the chain names the missing key.
      expect((await verifyAuditChain(handle.db)).broken).toMatchObject({ reason: "key_unknown", keyId: "1" });
      expect(cpfHashes(first.document, parseKeyRing(`2:${NEW}`))).toEqual([cpfHash(first.document)]);
    } finally {
      await handle.dispose();
    }
  });

  it("reads at most its batch per run and continues where it stopped", async () => {
    const handle = await indexedBeforeRotation();
    try {
      let reads = 0;
      const counting: RekeyClient = {
        getVerification: (id, signal) => {
          reads += 1;
          return unmasked.getVerification(id, signal);
        },
      };
      const runs = [];
      for (let run = 0; run < 3; run += 1)
        runs.push(await rekeySearchIndex(handle.db, { client: counting, holder: "instance-a", batch: 2 }));
      expect(runs.map((report) => (report.ran ? [report.read, report.remaining] : null))).toEqual([
        [2, 2],
        [2, 0],
        [0, 0],
      ]);
      expect(reads).toBe(4);
      expect(await countStaleIndexEntries(handle.db)).toBe(0);
    } finally {
      await handle.dispose();
    }
  });

  it("runs on one instance when two race for it", async () => {
    const handle = await indexedBeforeRotation();
    try {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let reads = 0;
      const slow: RekeyClient = {
        getVerification: async (id, signal) => {
          reads += 1;
          await gate;
          return unmasked.getVerification(id, signal);
        },
      };
      const a = rekeySearchIndex(handle.db, { client: slow, holder: "instance-a", batch: 10 });
      const b = rekeySearchIndex(handle.db, { client: slow, holder: "instance-b", batch: 10 });
      // The winner waits at its first read until released, so the first to answer is the instance refused.
      expect(await Promise.race([a, b])).toEqual({ ran: false });
      release();
      const reports = await Promise.all([a, b]);
      expect(reports.filter((report) => report.ran)).toHaveLength(1);
      expect(reads).toBe(4);
      expect((await handle.db.select().from(auditEvents).where(eq(auditEvents.action, "search.rekey"))).length).toBe(1);
    } finally {
      await handle.dispose();
    }
  });
});

import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { auditCheckpoints, auditEvents } from "@/lib/audit-trail/server/tables";
import { tamper } from "@/test/audit-trail";
import { ANA, BASE, EVENTS, minutes, seededTrail, trailSuite } from "@/test/audit-trail-events";
import { describeEachDatabase, type TestDatabase } from "@/test/db";

import { BrokenChainError, pruneAuditTrail } from "./prune";
import { verifyAuditChain } from "./verify";

// The trail's chain checked: an untouched chain passes, each kind of tampering is named, and pruning keeps it whole.

describeEachDatabase("audit trail on $name", ({ open }) => {
  // The tamper checks share one trail (each restores what it changed); a test that prunes changes the trail
  // for good, so it seeds one of its own (ownTrail).
  const suite = trailSuite(open);
  let handle: TestDatabase;
  let idOf: Map<string, number>;
  beforeAll(() => {
    ({ handle, idOf } = suite.trail);
  });

  describe("chain verification", () => {
    // Each tamper check changes the shared trail and restores what it changed before it ends, past the
    // database's refusal (test/audit-trail.ts tamper), as someone with superuser access would have to.
    async function exec(query: ReturnType<typeof sql>) {
      await tamper(handle.db, query);
    }

    /** Deletes the event from the shared trail (as exec does); the answer puts it back as it was. */
    async function deleteEvent(id: number): Promise<() => Promise<void>> {
      const [saved] = await handle.db
        .select()
        .from(auditEvents)
        .where(sql`id = ${id}`);
      await exec(sql`delete from audit_events where id = ${id}`);
      return async () => void (await handle.db.insert(auditEvents).values(saved!));
    }

    /** A seeded trail for the running test alone, disposed of when the test ends. */
    async function ownTrail() {
      const trail = await seededTrail(open);
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
      const restore = await deleteEvent(deleted);
      const result = await verifyAuditChain(handle.db, { batchSize: 2 });
      expect(result.broken).toMatchObject({ reason: "missing_before", eventId: idOf.get("e5"), previousEventId: idOf.get("e3") });
      expect(result.checked).toBe(3);
      await restore();
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);
    });

    it("checks a head noted earlier, which is how removing the newest events shows", async () => {
      const noted = await verifyAuditChain(handle.db);
      const head = { id: noted.lastEventId!, hash: noted.lastHash! };
      expect(head.id).toBe(idOf.get("e12"));
      expect((await verifyAuditChain(handle.db, { expectHead: head })).ok).toBe(true);
      const restore = await deleteEvent(head.id);
      // Nothing after the cut points back at it, but ids are gapless: the count of events appended names the cut.
      expect((await verifyAuditChain(handle.db)).broken).toMatchObject({
        reason: "tail_missing",
        eventId: head.id,
        missingIds: { from: head.id, to: head.id },
      });
      const cut = await verifyAuditChain(handle.db, { expectHead: head });
      expect(cut.broken).toMatchObject({ reason: "head_missing", eventId: head.id });
      expect(cut.broken?.message).toContain("newest events were removed");
      await restore();
      expect((await verifyAuditChain(handle.db, { expectHead: { ...head, hash: "f".repeat(64) } })).broken).toMatchObject({
        reason: "head_missing",
      });
    });

    it("names the first event when the oldest ones were deleted without a checkpoint", async () => {
      const first = idOf.get("e1")!;
      const restore = await deleteEvent(first);
      expect((await verifyAuditChain(handle.db)).broken).toMatchObject({
        reason: "missing_before",
        eventId: idOf.get("e2"),
        previousEventId: null,
      });
      await restore();
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

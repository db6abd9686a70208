import { sql } from "drizzle-orm";
import { expect, it } from "vitest";

import { auditCheckpoints, auditEvents } from "@/lib/audit-trail/server/tables";
import { refused } from "@/test/append-only";
import { describeEachDatabase, withTestEnvironment } from "@/test/db";

import { pruneAuditEvents } from "./index";
import { recordEvent } from "./record";
import { verifyAuditChain } from "./verify";

/*
 * The trail is append-only in the database itself (migration 0011_audit_append_only): a direct UPDATE or
 * DELETE of an audit event or checkpoint is refused by a trigger, whoever sends it; the retention pruner's own
 * path (its signed retention checkpoint, written first in the same transaction: migration 0015) is the one way
 * through, and the chain still verifies after it. The session setting the pruner once used opens nothing.
 */

withTestEnvironment();

const DAY = 86_400_000;

describeEachDatabase("the audit trail is append-only in the database on $name", ({ open }) => {
  async function trail(ages: number[]) {
    const handle = await open();
    const ids: number[] = [];
    for (const days of ages) {
      ids.push(
        (await recordEvent({ actor: null, action: "auth.sign_in", outcome: "success", at: new Date(Date.now() - days * DAY) }, handle.db))
          .id,
      );
    }
    return { handle, ids };
  }

  it("refuses a direct UPDATE and a direct DELETE of an audit event, and TRUNCATE", async () => {
    const { handle, ids } = await trail([2, 1, 0]);
    try {
      await refused(handle.db.execute(sql`update audit_events set purpose = 'covering tracks' where id = ${ids[1]!}`));
      await refused(handle.db.update(auditEvents).set({ outcome: "failure" }));
      await refused(handle.db.execute(sql`delete from audit_events where id = ${ids[2]!}`));
      await refused(handle.db.delete(auditEvents));
      await refused(handle.db.execute(sql`truncate audit_events`));
      expect(await handle.db.$count(auditEvents)).toBe(3);
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);
    } finally {
      await handle.dispose();
    }
  });

  it("lets the pruner's own run through for DELETEs of its prefix only, never an UPDATE, and only in its transaction", async () => {
    const { handle, ids } = await trail([2, 1, 0]);
    try {
      // The old session setting, set by hand, never allows an UPDATE, nor a DELETE.
      await refused(
        handle.db.transaction(async (tx) => {
          await tx.execute(sql`select set_config('kyc.audit_prune_through', ${String(ids[2]!)}, true)`);
          await tx.execute(sql`update audit_events set purpose = 'x' where id = ${ids[0]!}`);
        }),
      );
      await refused(
        handle.db.transaction(async (tx) => {
          await tx.execute(sql`select set_config('kyc.audit_prune_through', ${String(ids[0]!)}, true)`);
          await tx.execute(sql`delete from audit_events where id = ${ids[1]!}`);
        }),
      );
      // The pruner's own run: its checkpoint is its transaction's, so a DELETE after it is refused again.
      expect(await pruneAuditEvents(handle.db, { before: new Date(Date.now() - DAY / 2) })).toBe(2);
      await refused(handle.db.execute(sql`delete from audit_events`));
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);
    } finally {
      await handle.dispose();
    }
  });

  it("the pruner removes what is before the date, under a signed checkpoint the database then refuses to change", async () => {
    const { handle, ids } = await trail([40, 35, 31, 1, 0]);
    try {
      expect(await pruneAuditEvents(handle.db, { before: new Date(Date.now() - 30 * DAY) })).toBe(3);
      const left = await handle.db.select({ id: auditEvents.id, action: auditEvents.action }).from(auditEvents).orderBy(auditEvents.id);
      expect(left.map((row) => row.id).slice(0, 2)).toEqual(ids.slice(3));
      expect(left.at(-1)?.action).toBe("audit.prune");
      const verified = await verifyAuditChain(handle.db);
      expect(verified).toMatchObject({ ok: true, checked: 3, checkpoint: { throughEventId: ids[2], removedCount: 3 } });
      // Nothing more is before the date.
      expect(await pruneAuditEvents(handle.db, { before: new Date(Date.now() - 30 * DAY) })).toBe(0);

      await refused(handle.db.update(auditCheckpoints).set({ removedCount: 1 }));
      await refused(handle.db.delete(auditCheckpoints));
      await refused(handle.db.execute(sql`truncate audit_checkpoints`));
      expect((await verifyAuditChain(handle.db)).ok).toBe(true);
    } finally {
      await handle.dispose();
    }
  });
});

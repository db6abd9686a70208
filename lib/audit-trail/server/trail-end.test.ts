import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { sql } from "drizzle-orm";
import { expect, it, onTestFinished } from "vitest";

import { auditCheckpoints, auditEvents } from "@/lib/audit-trail/server/tables";
import type { Database } from "@/lib/db/client";
import { refused } from "@/test/append-only";
import { tamper } from "@/test/audit-trail";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, withTestEnvironment } from "@/test/db";

import { signCheckpoint } from "./checkpoint";
import { auditHeadFilePath, checkpointAuditHead, externalHeadSigned, readExternalHead } from "./head-file";
import { runAuditHeadCheckpoint } from "./head-schedule";
import { pruneAuditTrail } from "./prune";
import { recordEvent } from "./record";
import { verifyAuditChain, type VerifyResult } from "./verify";

/*
 * The trail's end cannot be cut silently (migration 0015, verify.ts, head-file.ts): ids are gapless, so events cut
 * from the middle or the end are named by id, even once new events are chained on; the pruner's way through the
 * append-only trigger is a retention checkpoint written first in its own transaction, which a session setting alone
 * no longer opens; and a database rewound past every check inside it (triggers off: events, checkpoints and the
 * count cut back) is caught by the head kept outside it.
 */

withTestEnvironment();

const DAY = 86_400_000;

/** A fresh place for the head kept outside the database, for this test. */
function freshHeadFile(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-head-"));
  onTestFinished(() => fs.rmSync(folder, { recursive: true, force: true }));
  const file = path.join(folder, "audit-head.json");
  stubConfigEnv({ AUDIT_HEAD_FILE: file });
  return file;
}

/** What `npm run audit:verify` checks: the chain, with the head kept outside the database when there is one. */
async function verifyWithHeadFile(db: Database): Promise<VerifyResult> {
  const external = readExternalHead(auditHeadFilePath()!);
  expect(external && externalHeadSigned(external)).toBe(true);
  return verifyAuditChain(db, {
    externalHead: { id: external!.throughEventId, hash: external!.throughEventHash, chainId: external!.chainId },
  });
}

async function append(db: Database, count: number, daysAgo = 0): Promise<number[]> {
  const ids: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const at = new Date(Date.now() - daysAgo * DAY);
    ids.push((await recordEvent({ actor: null, action: "search.cpf", outcome: "success", at }, db)).id);
  }
  return ids;
}

describeEachDatabase("the end of the audit trail on $name", ({ open }) => {
  async function trail(count: number) {
    const handle = await open();
    onTestFinished(() => handle.dispose());
    return { db: handle.db, ids: await append(handle.db, count) };
  }

  it("refuses the prune setting to any session: SET LOCAL then DELETE of the newest events", async () => {
    const { db, ids } = await trail(8);
    await refused(
      db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('kyc.audit_prune_through', '999999999', true)`);
        await tx.execute(sql`delete from audit_events where id > ${ids[2]!}`);
      }),
    );
    expect(await db.$count(auditEvents)).toBe(8);
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it("names the ids cut from the middle", async () => {
    const { db, ids } = await trail(6);
    await tamper(db, sql`delete from audit_events where id in (${ids[2]!}, ${ids[3]!})`);
    expect((await verifyAuditChain(db)).broken).toMatchObject({
      reason: "missing_before",
      eventId: ids[4],
      missingIds: { from: ids[2], to: ids[3] },
    });
  });

  it("names the ids cut from the end, and still after new events are chained on to what was left", async () => {
    const { db, ids } = await trail(8);
    await tamper(db, sql`delete from audit_events where id > ${ids[2]!}`);
    const cut = await verifyAuditChain(db);
    expect(cut.broken).toMatchObject({ reason: "tail_missing", missingIds: { from: ids[3], to: ids[7] } });
    expect(cut.broken?.message).toContain(`#${ids[3]} to #${ids[7]}`);

    const [after] = await append(db, 2);
    expect(after).toBe(ids[7]! + 1);
    const relinked = await verifyAuditChain(db);
    expect(relinked.broken).toMatchObject({ reason: "ids_missing", eventId: after, missingIds: { from: ids[3], to: ids[7] } });
  });

  it("keeps ids gapless when an append rolls back with its transaction", async () => {
    const { db, ids } = await trail(2);
    await expect(
      db.transaction(async (tx) => {
        await append(tx, 3);
        throw new Error("the action failed after recording");
      }),
    ).rejects.toThrow("the action failed");
    const [next] = await append(db, 1);
    expect(next).toBe(ids[1]! + 1);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, checked: 3 });
  });

  it("refuses lowering the count of events appended", async () => {
    const { db } = await trail(3);
    await refused(db.execute(sql`update audit_chain_head set last_event_id = 1`));
    await refused(db.execute(sql`delete from audit_chain_head`));
    await refused(db.execute(sql`truncate audit_chain_head`));
  });

  it("catches a rewound database (events, checkpoints and count cut back) against the head kept outside it", async () => {
    const file = freshHeadFile();
    const { db, ids } = await trail(6);
    const head = await checkpointAuditHead(db);
    expect(readExternalHead(file)).toMatchObject({ throughEventId: ids[5], checkpointId: head!.id });
    expect((await verifyWithHeadFile(db)).ok).toBe(true);

    // A role that owns the tables, triggers off: the newest events, every head checkpoint and the count go back.
    await tamper(
      db,
      sql`delete from audit_events where id > ${ids[2]!}`,
      sql`delete from audit_checkpoints`,
      sql`update audit_chain_head set last_event_id = ${ids[2]!}`,
    );
    expect((await verifyAuditChain(db)).ok).toBe(true);
    expect((await verifyWithHeadFile(db)).broken).toMatchObject({ reason: "head_missing", eventId: ids[5] });

    // New events reuse the ids: the head kept outside now names another event, and it is not overwritten.
    await append(db, 5);
    expect((await verifyAuditChain(db)).ok).toBe(true);
    const rewritten = await verifyWithHeadFile(db);
    expect(rewritten.broken).toMatchObject({ reason: "head_missing", eventId: ids[5] });
    expect(rewritten.broken?.message).toContain("different hash");
    await checkpointAuditHead(db);
    expect(readExternalHead(file)).toMatchObject({ throughEventId: ids[5] });
  });

  it("accepts a legitimate prune, and names a retention checkpoint written without the key that let a DELETE through", async () => {
    freshHeadFile();
    const handle = await open();
    onTestFinished(() => handle.dispose());
    const { db } = handle;
    const old = await append(db, 3, 40);
    const recent = await append(db, 2);
    const pruned = await pruneAuditTrail(db, { retentionDays: 30 });
    expect(pruned).toMatchObject({ removed: 3, throughEventId: old[2] });
    expect(await verifyWithHeadFile(db)).toMatchObject({ ok: true, checked: 3 });

    // Anyone with the database role can write a retention checkpoint, and then DELETE: but not sign it.
    const fields = {
      kind: "prune" as const,
      createdAt: new Date(),
      throughEventId: recent[1]!,
      throughEventHash: "0".repeat(64),
      throughEventAt: new Date(),
      removedCount: 1,
      cutoff: new Date(),
      retentionDays: 0,
    };
    await db.transaction(async (tx) => {
      await tx.insert(auditCheckpoints).values({ ...fields, signature: signCheckpoint(fields, "not-the-audit-key") });
      await tx.execute(sql`delete from audit_events where id = ${recent[1]!}`);
    });
    expect((await verifyAuditChain(db)).broken).toMatchObject({ reason: "checkpoint_forged" });
  });

  it("signs the head on a timer, one instance per interval, and copies it outside the database", async () => {
    const file = freshHeadFile();
    const { db, ids } = await trail(3);
    const now = new Date();
    const first = await runAuditHeadCheckpoint(db, { holder: "a", minGapMs: 60_000, now });
    expect(first).toMatchObject({ throughEventId: ids[2] });
    expect(readExternalHead(file)).toMatchObject({ throughEventId: ids[2], checkpointId: first!.id });
    const [next] = await append(db, 1);
    expect(await runAuditHeadCheckpoint(db, { holder: "b", minGapMs: 60_000, now: new Date(now.getTime() + 1000) })).toBeNull();
    const later = await runAuditHeadCheckpoint(db, { holder: "b", minGapMs: 60_000, now: new Date(Date.now() + 120_000) });
    expect(later).toMatchObject({ throughEventId: next });
    expect(readExternalHead(file)).toMatchObject({ throughEventId: next });
  });
});

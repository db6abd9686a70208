import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";

import { asc, inArray, sql } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";

import { chainSigner, recordEvent as record, type AuditEvent } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { createDatabase, type Database } from "@/lib/db/client";
import { singleKeyRing } from "@/lib/keys/ring";
import { describeEachDatabase, setProcessDatabase, TEST_SECRETS, withDatabase, withTestEnvironment } from "@/test/db";

import { GroupCommitter, type ChainedFields } from "./group-commit";
import { verifyAuditChain } from "./verify";

withTestEnvironment();
afterEach(() => setProcessDatabase(undefined));

const actor = { id: "9f1c2f3e-7d8a-4b5c-9e0f-1a2b3c4d5e6f", email: "ana@example.com" };
const event = (index: number, action = "verification.list"): AuditEvent => ({ actor, action, outcome: "success", details: { index } });
const signerOf = () => chainSigner({ id: "1", secret: TEST_SECRETS.AUDIT_HASH_SECRET });
const ring = singleKeyRing(TEST_SECRETS.AUDIT_HASH_SECRET);
const fieldsOf = (index: number, action = "verification.list"): ChainedFields => ({
  at: new Date(Math.floor(Date.now())),
  actorId: actor.id,
  actorEmail: actor.email,
  action,
  targetType: null,
  target: null,
  targetHash: null,
  purpose: null,
  outcome: "success",
  ip: null,
  details: { index },
});

/** Counts the transactions opened on a database handle (a batch is one transaction). */
function countingTransactions(db: Database): { db: Database; count: () => number } {
  let count = 0;
  const counted = new Proxy(db, {
    get(target, property, receiver) {
      if (property === "transaction") {
        return (...args: Parameters<Database["transaction"]>) => {
          count += 1;
          return target.transaction(...args);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { db: counted, count: () => count };
}

/** The events on the trail among `ids`. */
function eventsWithIds(db: Database, ids: number[]) {
  return db.select({ id: auditEvents.id }).from(auditEvents).where(inArray(auditEvents.id, ids));
}

describeEachDatabase("audit group commit on $name", ({ name, open }) => {
  const handle = withDatabase(open);

  it("answers every concurrent writer only with its own committed event, sharing transactions, in one chain", async () => {
    const { db, count } = countingTransactions(handle.db);
    const committer = new GroupCommitter(db, signerOf);
    const written = await Promise.all(Array.from({ length: 120 }, (_, index) => committer.append(fieldsOf(index))));

    // Every answer names a distinct event that is on the trail, holding that writer's own details.
    const ids = written.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(120);
    const rows = await handle.db.select().from(auditEvents).where(inArray(auditEvents.id, ids));
    const byId = new Map(rows.map((row) => [row.id, row]));
    written.forEach((entry, index) => {
      expect(byId.get(entry.id)?.details).toEqual({ index });
      expect(byId.get(entry.id)?.hash).toBe(entry.hash);
    });
    // Grouped: all 120 arrive before the committer's first turn, so they share one transaction.
    expect(count()).toBe(1);
    // Arrival order is chain order.
    const ordered = [...rows].sort((a, b) => a.id - b.id).map((row) => (row.details as { index: number }).index);
    expect(ordered).toEqual([...ordered].sort((a, b) => a - b));
    expect((await verifyAuditChain(handle.db, { ring })).ok).toBe(true);
  });

  it("groups writers whose events each follow a query of their own, as a list view's do", async () => {
    // On PGlite every statement runs synchronously: without the committer's turn, each writer's query,
    // event and commit would complete before the next writer's timer fired, one transaction per event.
    const { db, count } = countingTransactions(handle.db);
    const committer = new GroupCommitter(db, signerOf);
    const written = await Promise.all(
      Array.from({ length: 60 }, async (_, index) => {
        await new Promise((resolve) => setTimeout(resolve, index % 3));
        await db.execute(sql`select 1`);
        return committer.append(fieldsOf(index));
      }),
    );
    expect(new Set(written.map((entry) => entry.id)).size).toBe(60);
    expect(count()).toBeLessThan(20);
    expect((await verifyAuditChain(handle.db, { ring })).ok).toBe(true);
  });

  it("record() without a transaction goes through the process committer and answers after the commit", async () => {
    setProcessDatabase(handle);
    const results = await Promise.all(Array.from({ length: 40 }, (_, index) => record(event(index, "verification.view"))));
    const rows = await eventsWithIds(
      handle.db,
      results.map((result) => result.id),
    );
    expect(rows).toHaveLength(40);
    expect((await verifyAuditChain(handle.db, { ring })).ok).toBe(true);
  });

  it("refuses only the event the database refuses, not the rest of its batch", async () => {
    await handle.db.execute(sql`alter table audit_events add constraint audit_test_block check (action <> 'test.blocked')`);
    try {
      const committer = new GroupCommitter(handle.db, signerOf);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, index) => committer.append(fieldsOf(index, index === 17 ? "test.blocked" : "verification.list"))),
      );
      expect(outcomes.filter((outcome) => outcome.status === "rejected")).toHaveLength(1);
      expect(outcomes[17]?.status).toBe("rejected");
      const stored = await handle.db
        .select({ action: auditEvents.action })
        .from(auditEvents)
        .where(sql`${auditEvents.action} = 'test.blocked'`);
      expect(stored).toHaveLength(0);
      expect((await verifyAuditChain(handle.db, { ring })).ok).toBe(true);
    } finally {
      await handle.db.execute(sql`alter table audit_events drop constraint audit_test_block`);
    }
  });

  if (name === "postgres") {
    it("keeps one chain when two instances (two connection pools) commit batches at once", async () => {
      const second = await createDatabase({ url: handle.url! });
      try {
        const a = new GroupCommitter(handle.db, signerOf);
        const b = new GroupCommitter(second.db, signerOf);
        const written = await Promise.all(
          Array.from({ length: 200 }, (_, index) => (index % 2 ? a : b).append(fieldsOf(index, "verification.detail"))),
        );
        const rows = await eventsWithIds(
          handle.db,
          written.map((entry) => entry.id),
        );
        expect(rows).toHaveLength(200);
        expect((await verifyAuditChain(handle.db, { ring })).ok).toBe(true);
      } finally {
        await second.close();
      }
    });

    it("loses no acknowledged event when the process is killed mid-load", async () => {
      const child = spawn(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", path.join(import.meta.dirname, "../../../test/audit-load-child.ts")],
        {
          cwd: path.join(import.meta.dirname, "../../.."),
          env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: handle.url!, LOG_LEVEL: "silent" },
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      const acknowledged: number[] = [];
      const lines = readline.createInterface({ input: child.stdout! });
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
        child.once("exit", (code, signal) => resolve(signal ?? code)),
      );
      await new Promise<void>((resolve, reject) => {
        lines.on("line", (line) => {
          const id = Number(line);
          if (!Number.isInteger(id)) return;
          acknowledged.push(id);
          // Well into the load, with batches in flight: kill without warning.
          if (acknowledged.length === 400) {
            child.kill("SIGKILL");
            resolve();
          }
        });
        child.once("exit", () => reject(new Error(`the writer exited after ${acknowledged.length} events`)));
      });
      expect(await exited).toBe("SIGKILL");

      const rows = await handle.db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(inArray(auditEvents.id, acknowledged))
        .orderBy(asc(auditEvents.id));
      expect(rows).toHaveLength(new Set(acknowledged).size);
      expect((await verifyAuditChain(handle.db, { ring })).ok).toBe(true);
    });
  }
});

import { eq, inArray, sql } from "drizzle-orm";
import { expect, it } from "vitest";

import { createDatabase, type Database } from "@/lib/db/client";
import { verificationEvents, webhookDeliveries } from "@/lib/webhooks/server/tables";
import { describeEachDatabase, withDatabase, withTestEnvironment } from "@/test/db";
import { envelopeEvent, flatEvent, uniqueId } from "@/test/webhooks";

import { onVerificationChange, type VerificationChange } from "./changes";
import { parseDelivery } from "./parse";
import { MAX_ATTEMPTS, processPendingDeliveries } from "./processor";
import { listChangesSince, listVerificationEvents, storeDelivery } from "./store";

// No service runs here: every read of it (the connection an event belongs to, lib/webhooks/server/route-connection.ts)
// fails at once instead of after its retries, and the event is filed under `primary`.
withTestEnvironment({ UPSTREAM_READ_RETRIES: "0" }, { quiet: true });

async function store(db: Database, body: object, deliveryId = uniqueId("dlv")) {
  const raw = JSON.stringify(body);
  const parsed = parseDelivery(raw);
  if (parsed.kind === "malformed") throw new Error(parsed.problem);
  await storeDelivery(db, { deliveryId, rawBody: raw, parsed, ip: null });
  return deliveryId;
}

describeEachDatabase("webhook processor on $name", ({ name, open }) => {
  const handle = withDatabase(open);

  it("a listener that throws leaves the delivery pending, backing off, with nothing of it committed; it succeeds later", async () => {
    const publicId = uniqueId("ver");
    let fail = true;
    const calls: VerificationChange[] = [];
    const flaky = async (db: Database, change: VerificationChange) => {
      if (change.publicId !== publicId) return;
      calls.push(change);
      // Written inside the processing transaction: must vanish when the listener then fails.
      await db.execute(sql`select 1`);
      if (fail) throw new Error("listener unavailable");
    };
    const unregister = onVerificationChange(flaky);
    try {
      const deliveryId = await store(handle.db, flatEvent(publicId));
      await processPendingDeliveries(handle.db);
      const [row] = await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, deliveryId));
      expect(row).toMatchObject({ state: "pending", attempts: 1, lastError: "Error: listener unavailable" });
      expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
      expect(await listVerificationEvents(handle.db, publicId, "primary")).toEqual([]);

      // Not yet due: a sweep now leaves it alone.
      await processPendingDeliveries(handle.db);
      expect(calls).toHaveLength(1);

      fail = false;
      await handle.db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date(0) })
        .where(eq(webhookDeliveries.deliveryId, deliveryId));
      await processPendingDeliveries(handle.db);
      expect((await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, deliveryId)))[0]).toMatchObject({
        state: "processed",
        attempts: 2,
        lastError: null,
      });
      expect(await listVerificationEvents(handle.db, publicId, "primary")).toHaveLength(1);
    } finally {
      unregister();
    }
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts and marks the delivery failed`, async () => {
    const publicId = uniqueId("ver");
    const broken = async (_db: Database, change: VerificationChange) => {
      if (change.publicId === publicId) throw new Error("always");
    };
    const unregister = onVerificationChange(broken);
    try {
      const deliveryId = await store(handle.db, flatEvent(publicId));
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        await handle.db
          .update(webhookDeliveries)
          .set({ nextAttemptAt: new Date(0) })
          .where(eq(webhookDeliveries.deliveryId, deliveryId));
        await processPendingDeliveries(handle.db);
      }
      const [row] = await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, deliveryId));
      expect(row).toMatchObject({ state: "failed", attempts: MAX_ATTEMPTS });
    } finally {
      unregister();
    }
  });

  it("several processors at once (as on several instances): every delivery processed once, each event recorded once", async () => {
    const prefix = uniqueId("race");
    const calls = new Map<string, number>();
    const counting = async (_db: Database, change: VerificationChange) => {
      if (change.publicId.startsWith(prefix)) calls.set(change.deliveryId, (calls.get(change.deliveryId) ?? 0) + 1);
    };
    const unregister = onVerificationChange(counting);
    // A second connection pool on the same PostgreSQL database stands for another instance.
    const other = name === "postgres" ? await createDatabase({ url: await currentUrl(handle.db) }) : undefined;
    try {
      const ids: string[] = [];
      for (let index = 0; index < 12; index += 1) {
        const body = index % 2 ? flatEvent(`${prefix}_${index}`) : envelopeEvent(`${prefix}_${index}`);
        ids.push(await store(handle.db, body));
        // Every third event arrives twice under another delivery id.
        if (index % 3 === 0) ids.push(await store(handle.db, body));
      }
      const dbs = [handle.db, other?.db ?? handle.db, handle.db, other?.db ?? handle.db];
      await Promise.all(dbs.map((db) => processPendingDeliveries(db)));
      const rows = await handle.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.deliveryId, ids));
      expect(rows.every((row) => row.state === "processed" && row.attempts === 1)).toBe(true);
      const events = await handle.db
        .select()
        .from(verificationEvents)
        .where(sql`${verificationEvents.publicId} like ${`${prefix}_%`}`);
      expect(events).toHaveLength(12);
      expect([...calls.values()].every((count) => count === 1)).toBe(true);
      expect(calls.size).toBe(12);
    } finally {
      unregister();
      await other?.close();
    }
  });

  it("the change feed: the head without a cursor, then only what was recorded after it, in order", async () => {
    const { cursor: head } = await listChangesSince(handle.db, "primary", undefined);
    expect((await listChangesSince(handle.db, "primary", head)).changes).toEqual([]);
    const publicId = uniqueId("ver");
    await store(handle.db, flatEvent(publicId, { status: "review", occurred_at: "2026-01-01T10:00:00Z" }));
    await store(handle.db, flatEvent(publicId, { status: "approved", occurred_at: "2026-01-01T11:00:00Z" }));
    await processPendingDeliveries(handle.db);
    const feed = await listChangesSince(handle.db, "primary", head);
    expect(feed.changes.map((change) => [change.publicId, change.status])).toEqual([
      [publicId, "review"],
      [publicId, "approved"],
    ]);
    expect(feed.cursor).toBe(feed.changes.at(-1)!.id);
    expect((await listChangesSince(handle.db, "primary", feed.cursor)).changes).toEqual([]);
    const limited = await listChangesSince(handle.db, "primary", head, 1);
    expect(limited).toMatchObject({ truncated: true, changes: [expect.objectContaining({ status: "review" })] });
    expect((await listVerificationEvents(handle.db, publicId, "primary")).map((event) => event.status)).toEqual(["review", "approved"]);
  });
});

/** The URL of the test's own PostgreSQL database (the handle does not expose it). */
async function currentUrl(db: Database): Promise<string> {
  const result = (await db.execute(sql`select current_database() as name`)) as unknown as { rows: Array<{ name: string }> };
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${result.rows[0]!.name}`;
  return url.toString();
}

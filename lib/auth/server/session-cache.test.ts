import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";

import { staffSessions, staffUsers } from "@/lib/auth/server/tables";
import { createDatabase, type Database, type DatabaseHandle } from "@/lib/db/client";
import { describeEachDatabase, withDatabase, withTestEnvironment } from "@/test/db";

import { SessionCache } from "./session-cache";
import { IDLE_TIMEOUT_MS, revokeSession, startSession } from "./sessions";

withTestEnvironment();

/** The same handle, counting the queries its cache sends to the database. */
function counted(handle: DatabaseHandle): { handle: DatabaseHandle; queries: () => number } {
  let queries = 0;
  const db = new Proxy(handle.db, {
    get(target, property, receiver) {
      if (property === "select" || property === "update") {
        return (...args: unknown[]) => {
          queries += 1;
          return (Reflect.get(target, property, receiver) as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  }) as Database;
  return { handle: { ...handle, db }, queries: () => queries };
}

async function staffWithSession(db: Database, role: "analyst" | "admin" = "analyst") {
  const email = `user-${Math.random().toString(36).slice(2)}@example.com`;
  const [user] = await db.insert(staffUsers).values({ email, name: "Test", role }).returning({ id: staffUsers.id });
  const sessionId = await startSession(db, { userId: user!.id, email, method: "password", ip: null });
  return { sessionId, userId: user!.id };
}

describeEachDatabase("the session cache on $name", ({ name, open }) => {
  const database = withDatabase(open);

  async function listeningCache(handle: DatabaseHandle = database) {
    const cache = new SessionCache(handle);
    await expect.poll(() => cache.trusted).toBe(true);
    return cache;
  }

  it("answers a live session from memory after the first check", async () => {
    const ids = await staffWithSession(database.db);
    const { handle, queries } = counted(database);
    const cache = await listeningCache(handle);
    expect((await cache.validate(ids))?.id).toBe(ids.userId);
    const afterFirst = queries();
    expect(afterFirst).toBeGreaterThan(0);
    for (let index = 0; index < 5; index += 1) expect((await cache.validate(ids))?.id).toBe(ids.userId);
    expect(queries()).toBe(afterFirst);
  });

  it("forgets a session revoked by any code path (the database announces it)", async () => {
    const ids = await staffWithSession(database.db);
    const cache = await listeningCache();
    expect(await cache.validate(ids)).not.toBeNull();
    // Straight SQL, as a script or another instance would: nothing in this process is told directly.
    await database.db.update(staffSessions).set({ revokedAt: new Date() }).where(eq(staffSessions.id, ids.sessionId));
    await expect.poll(() => cache.validate(ids)).toBeNull();
  });

  it("forgets every session of a user who is disabled, and sees a changed role", async () => {
    const disabled = await staffWithSession(database.db);
    const demoted = await staffWithSession(database.db, "admin");
    const cache = await listeningCache();
    expect(await cache.validate(disabled)).not.toBeNull();
    expect((await cache.validate(demoted))?.role).toBe("admin");
    await database.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, disabled.userId));
    await database.db.update(staffUsers).set({ role: "analyst" }).where(eq(staffUsers.id, demoted.userId));
    await expect.poll(() => cache.validate(disabled)).toBeNull();
    await expect.poll(async () => (await cache.validate(demoted))?.role).toBe("analyst");
  });

  it("carries the member's connection grants, and sees them change whoever changes them (the database announces it)", async () => {
    const ids = await staffWithSession(database.db);
    const cache = await listeningCache();
    expect((await cache.validate(ids))?.connectionGrants).toBeNull();
    // Straight SQL, as a script or another instance would: nothing in this process is told directly.
    const connection = `c-${Math.random().toString(36).slice(2, 8)}`;
    await database.db.execute(
      sql`insert into connections (id, name, environment, core_key_sealed, core_key_hint) values (${connection}, 'Test', 'sandbox', 'v1.x.y', 'hint')`,
    );
    await database.db.execute(
      sql`insert into staff_connection_access (staff_id, connection_id, withheld) values (${ids.userId}, ${connection}, '{media.read,no.such_permission}')`,
    );
    await expect
      .poll(async () => (await cache.validate(ids))?.connectionGrants)
      .toEqual([{ connectionId: connection, withheld: ["media.read"] }]);
    await database.db.execute(sql`delete from staff_connection_access where staff_id = ${ids.userId}`);
    await expect.poll(async () => (await cache.validate(ids))?.connectionGrants).toBeNull();
  });

  it("still ends an idle session: an entry is never trusted past its last-seen touch", async () => {
    const ids = await staffWithSession(database.db);
    const cache = await listeningCache();
    expect(await cache.validate(ids)).not.toBeNull();
    expect(await cache.validate(ids, new Date(Date.now() + IDLE_TIMEOUT_MS + 60_000))).toBeNull();
  });

  it("forgets a session signed out in this process at once, before any notification", async () => {
    const ids = await staffWithSession(database.db);
    const cache = await listeningCache();
    expect(await cache.validate(ids)).not.toBeNull();
    expect(await revokeSession(database.db, ids.sessionId)).toBe(true);
    expect(await cache.validate(ids)).toBeNull();
  });

  it("reads the database on every check while its change feed is down", async () => {
    const ids = await staffWithSession(database.db);
    const { handle, queries } = counted(database);
    const deaf: DatabaseHandle = { ...handle, changeFeed: () => ({ connected: false, close: async () => undefined }) };
    const cache = new SessionCache(deaf);
    await cache.validate(ids);
    const afterFirst = queries();
    await cache.validate(ids);
    expect(queries()).toBeGreaterThan(afterFirst);
    await database.db.execute(sql`update staff_sessions set revoked_at = now() where id = ${ids.sessionId}`);
    expect(await cache.validate(ids)).toBeNull();
  });

  if (name === "postgres") {
    it("a sign-out on one instance ends the session on another instance", async () => {
      const other = await createDatabase({ url: database.url! });
      try {
        const ids = await staffWithSession(database.db);
        const here = await listeningCache(database);
        const there = await listeningCache(other);
        expect(await there.validate(ids)).not.toBeNull();
        expect(await here.validate(ids)).not.toBeNull();
        // The other instance's sign-out, as its own SQL: this process's caches hear of it only through the feed.
        await other.db.update(staffSessions).set({ revokedAt: new Date() }).where(eq(staffSessions.id, ids.sessionId));
        await expect.poll(() => here.validate(ids)).toBeNull();
        await expect.poll(() => there.validate(ids)).toBeNull();
      } finally {
        await other.close();
      }
    });
  }
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { staffUsers } from "@/lib/auth/server/tables";
import { cases, verificationIndex } from "@/lib/cases/server/tables";
import { createDatabase, type DatabaseHandle } from "@/lib/db/client";
import { makeStaff, makeVerification } from "@/test/cases";
import { describeEachDatabase, withTestEnvironment, type TestDatabase } from "@/test/db";

import * as enrich from "./enrich";
import { EnrichmentCache } from "./enrichment-cache";

/*
 * The list's enrichment cache, on PGlite and PostgreSQL: a second view of the same rows sends no statement, and
 * whatever changes a row's columns (a ref_id written, a case opened, assigned, closed, a member renamed),
 * made through another handle (another instance on PostgreSQL), reaches the cache through the database's
 * triggers. Without a listening feed nothing is trusted.
 */

withTestEnvironment();

/** Polls until `check` holds (a notification's delay), failing with the last value after 5 s. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() - start > 5_000) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describeEachDatabase("the list's enrichment cache on $name", ({ name, open }) => {
  let h: TestDatabase;
  // The instance writing: another handle of the same database on PostgreSQL (PGlite is one process).
  let writer: DatabaseHandle;
  let cache: EnrichmentCache;
  beforeAll(async () => {
    h = await open();
    writer = name === "postgres" ? await createDatabase({ url: h.url! }) : h;
    cache = new EnrichmentCache(h);
    // Let the feed connect (a LISTEN connection of its own on PostgreSQL).
    await eventually(
      async () => (cache as unknown as { feed: { connected: boolean } }).feed.connected,
      (connected) => connected,
    );
  });
  afterAll(async () => {
    if (writer !== h) await writer.close();
    await h?.dispose();
  });

  it("reads once, then answers from memory, an absence included", async () => {
    const [indexed, absent] = [makeVerification(), makeVerification()];
    await writer.db.insert(verificationIndex).values({ publicId: indexed.publicId, refId: "REF-1" });
    const reads = vi.spyOn(enrich, "enrichmentOf");
    try {
      const ids = [indexed.publicId, absent.publicId];
      // Once the insert's announcement has arrived (it may follow the first read on PostgreSQL), a view of the
      // same rows sends no statement.
      const settled = await eventually(
        async () => {
          await cache.read(ids);
          const before = reads.mock.calls.length;
          return { again: await cache.read(ids), statements: reads.mock.calls.length - before, before };
        },
        (value) => value.statements === 0,
      );
      expect(settled.before).toBeGreaterThan(0);
      expect(settled.statements).toBe(0);
      expect(settled.again).toEqual({ [indexed.publicId]: { refId: "REF-1", caseOpenedAt: null, caseOwner: null } });
    } finally {
      reads.mockRestore();
    }
  });

  it("learns of a case opened, assigned, its owner renamed and the case closed, made by another instance", async () => {
    const verification = makeVerification();
    const ids = [verification.publicId];
    expect(await cache.read(ids)).toEqual({});

    const openedAt = new Date("2026-11-20T12:00:00Z");
    await writer.db.insert(cases).values({ publicId: verification.publicId, upstreamStatus: "review", openedAt, dueAt: openedAt });
    const opened = { refId: null, caseOpenedAt: openedAt.toISOString(), caseOwner: null };
    expect(
      await eventually(
        () => cache.read(ids),
        (value) => value[verification.publicId] !== undefined,
      ),
    ).toEqual({
      [verification.publicId]: opened,
    });

    const owner = await makeStaff(writer.db, "analyst");
    await writer.db.update(cases).set({ assigneeId: owner.actor.id }).where(eq(cases.publicId, verification.publicId));
    expect(
      (
        await eventually(
          () => cache.read(ids),
          (value) => value[verification.publicId]?.caseOwner !== null,
        )
      )[verification.publicId],
    ).toEqual({ ...opened, caseOwner: "analyst" });

    await writer.db.update(staffUsers).set({ name: "second name" }).where(eq(staffUsers.id, owner.actor.id));
    expect(
      (
        await eventually(
          () => cache.read(ids),
          (value) => value[verification.publicId]?.caseOwner === "second name",
        )
      )[verification.publicId]?.caseOwner,
    ).toBe("second name");

    await writer.db.update(cases).set({ status: "closed", closedAt: new Date() }).where(eq(cases.publicId, verification.publicId));
    expect(
      await eventually(
        () => cache.read(ids),
        (value) => value[verification.publicId] === undefined,
      ),
    ).toEqual({});
  });

  it("trusts nothing while its feed is not listening: every view reads the database", async () => {
    const unheard = new EnrichmentCache({ db: h.db, changeFeed: () => ({ connected: false, close: async () => undefined }) } as never);
    const verification = makeVerification();
    expect(await unheard.read([verification.publicId])).toEqual({});
    // Written with the triggers' announcement lost to this cache: the next view still sees it.
    await writer.db.insert(verificationIndex).values({ publicId: verification.publicId, refId: "REF-2" });
    expect((await unheard.read([verification.publicId]))[verification.publicId]?.refId).toBe("REF-2");
  });
});

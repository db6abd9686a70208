import { and, desc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/schema";
import { staffUsers } from "@/lib/auth/server/schema";
import { rateLimits } from "@/lib/db/schema";
import { unlockStaffSignIn } from "@/lib/staff/server/staff";
import { createTestStaff } from "@/test/auth";
import { describeEachDatabase, stubTestEnvironment, type TestDatabase } from "@/test/db";

import { clientAddress, PEER_HEADER } from "../../shared/client-address";
import { attemptPasswordSignIn } from "./sign-in";
import { ADDRESS_FAILURE_LIMIT, LOCK_MS, MAX_SLOWDOWN_MS, PAIR_FAILURE_LIMIT, signInBlock, slowdownMs } from "./throttle";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

describe("slowdown", () => {
  it("starts after two failures and doubles up to a ceiling", () => {
    expect([0, 1, 2, 3, 4, 9, 50].map((failures) => slowdownMs(failures, 0))).toEqual([0, 0, 500, 1000, 2000, 8000, MAX_SLOWDOWN_MS]);
    expect(slowdownMs(0, 9)).toBe(0);
    expect(slowdownMs(0, 11)).toBe(1000);
  });
});

describeEachDatabase("password sign-in on $name", ({ open }) => {
  let handle: TestDatabase;
  const waits: number[] = [];
  let clock = new Date("2026-03-02T09:00:00Z");
  const options = { now: () => clock, wait: async (ms: number) => void waits.push(ms) };
  const attempt = (email: string, password: string, address: string) =>
    attemptPasswordSignIn(handle.db, { email, password, address, allowDemoAccounts: true }, options);

  beforeAll(async () => {
    handle = await open();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it("signs in with the right password, whatever the email's case", async () => {
    const user = await createTestStaff(handle.db, { email: "right@example.com", password: "the right password" });
    const result = await attempt(" Right@Example.com ", "the right password", "192.0.2.1");
    expect(result).toEqual({ status: "ok", user: { id: user.id, email: user.email, name: user.name, role: "analyst" } });
  });

  it("gives the same answer for an unknown email, a wrong password and a disabled account", async () => {
    const disabled = await createTestStaff(handle.db, { email: "off@example.com", password: "the right password" });
    await handle.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, disabled.id));
    await createTestStaff(handle.db, { email: "known@example.com", password: "the right password" });
    const unknown = await attempt("nobody@example.com", "whatever it is", "192.0.2.2");
    const wrong = await attempt("known@example.com", "not the password", "192.0.2.3");
    const off = await attempt("off@example.com", "the right password", "192.0.2.4");
    expect(unknown).toEqual({ status: "invalid" });
    expect(wrong).toEqual(unknown);
    expect(off).toEqual(unknown);
    // The trail says more than the user sees: admins need the reason.
    const failures = await handle.db
      .select({ actorEmail: auditEvents.actorEmail, details: auditEvents.details, ip: auditEvents.ip })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.sign_in"), eq(auditEvents.outcome, "failure")));
    expect(failures).toEqual(
      expect.arrayContaining([
        { actorEmail: "nobody@example.com", details: { method: "password", reason: "unknown_account" }, ip: "192.0.2.2" },
        { actorEmail: "known@example.com", details: { method: "password", reason: "wrong_password" }, ip: "192.0.2.3" },
        { actorEmail: "off@example.com", details: { method: "password", reason: "disabled" }, ip: "192.0.2.4" },
      ]),
    );
  });

  it("never writes what was typed into the email box when it is not an email", async () => {
    await attempt("my secret password", "oops", "192.0.2.5");
    const rows = await handle.db.select().from(auditEvents).where(eq(auditEvents.ip, "192.0.2.5"));
    expect(JSON.stringify(rows)).not.toContain("my secret password");
  });

  it("locks out only the address that guesses; the owner still signs in from elsewhere, slowed down", async () => {
    await createTestStaff(handle.db, { email: "target@example.com", password: "the right password" });
    waits.length = 0;
    const results = [];
    for (let index = 0; index < PAIR_FAILURE_LIMIT; index += 1) {
      results.push(await attempt("target@example.com", `guess ${index}`, "198.51.100.10"));
    }
    expect(waits).toEqual([500, 1000, 2000]);
    expect(results.slice(0, -1).every((result) => result.status === "invalid")).toBe(true);
    expect(results.at(-1)).toEqual({ status: "locked", retryAfterMs: LOCK_MS });
    const [lockEvent] = await handle.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.ip, "198.51.100.10"), eq(auditEvents.outcome, "failure")))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(lockEvent?.details).toEqual({ method: "password", reason: "wrong_password", delayMs: 2000, locked: "account_address" });

    // The guessing address is refused even with the right password, without the password being checked.
    expect((await attempt("target@example.com", "the right password", "198.51.100.10")).status).toBe("locked");
    const [denied] = await handle.db
      .select({ outcome: auditEvents.outcome, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.ip, "198.51.100.10"), eq(auditEvents.outcome, "denied")));
    expect(denied).toEqual({ outcome: "denied", details: { method: "password", reason: "throttled" } });

    // The owner, elsewhere, gets in: held back by the account's slow-down, never locked.
    waits.length = 0;
    expect((await attempt("target@example.com", "the right password", "198.51.100.99")).status).toBe("ok");
    expect(waits).toEqual([slowdownMs(PAIR_FAILURE_LIMIT, 0)]);

    // The lock lasts a while, then the guessing address may try again.
    clock = new Date(clock.getTime() + LOCK_MS + 1000);
    expect((await attempt("target@example.com", "the right password", "198.51.100.10")).status).toBe("ok");
  });

  it("slows an account down from every address up to a ceiling, and never locks it", async () => {
    clock = new Date(clock.getTime() + 60 * 60_000);
    await createTestStaff(handle.db, { email: "spread@example.com", password: "the right password" });
    waits.length = 0;
    for (let index = 0; index < 12; index += 1) {
      expect((await attempt("spread@example.com", "guess", `198.51.100.${100 + index}`)).status).toBe("invalid");
    }
    expect(waits.at(-1)).toBe(MAX_SLOWDOWN_MS);
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    expect((await attempt("spread@example.com", "the right password", "198.51.100.200")).status).toBe("ok");
  });

  it("lets an admin lift an account's locks and slow-down at once, on the trail", async () => {
    clock = new Date(clock.getTime() + 60 * 60_000);
    const admin = await createTestStaff(handle.db, { email: "boss@example.com", role: "admin", password: "the right password" });
    const owner = await createTestStaff(handle.db, { email: "held@example.com", password: "the right password" });
    for (const address of ["203.0.113.20", "203.0.113.21"]) {
      for (let index = 0; index < PAIR_FAILURE_LIMIT; index += 1) await attempt("held@example.com", "guess", address);
    }
    const before = await signInBlock(handle.db, "held@example.com", clock);
    expect(before.lockedAddresses).toEqual(["203.0.113.20", "203.0.113.21"]);
    expect(before.recentFailures).toBe(2 * PAIR_FAILURE_LIMIT);

    const actor = { id: admin.id, email: admin.email, sessionId: "s" };
    await unlockStaffSignIn(handle.db, { actor, ip: "192.0.2.200", id: owner.id, now: clock });
    expect(await signInBlock(handle.db, "held@example.com", clock)).toEqual({ lockedUntil: null, lockedAddresses: [], recentFailures: 0 });
    waits.length = 0;
    expect((await attempt("held@example.com", "the right password", "203.0.113.20")).status).toBe("ok");
    expect(waits).toEqual([]);
    const [event] = await handle.db
      .select({ actorId: auditEvents.actorId, target: auditEvents.target, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, "staff.sign_in_unlock"));
    expect(event).toEqual({ actorId: admin.id, target: owner.id, details: { lockedAddresses: 2, recentFailures: 10 } });
    // Other accounts' counters are untouched (the prefix match is exact).
    expect(await handle.db.select().from(rateLimits).where(like(rateLimits.key, "sign-in:address:203.0.113.2%"))).not.toEqual([]);
  });

  it("counts concurrent failures without losing one, and locks at the limit", async () => {
    clock = new Date(clock.getTime() + 60 * 60_000);
    await createTestStaff(handle.db, { email: "race@example.com", password: "the right password" });
    const results = await Promise.all(
      Array.from({ length: PAIR_FAILURE_LIMIT * 2 }, () => attempt("race@example.com", "guess", "203.0.113.30")),
    );
    expect(results.some((result) => result.status === "locked")).toBe(true);
    expect((await signInBlock(handle.db, "race@example.com", clock)).recentFailures).toBe(PAIR_FAILURE_LIMIT * 2);
  });

  it("refuses an address that tries many accounts, and a forged X-Forwarded-For does not reset it", async () => {
    clock = new Date(clock.getTime() + 60 * 60_000);
    await createTestStaff(handle.db, { email: "victim@example.com", password: "the right password" });
    const trusted: string[] = [];
    let last;
    for (let index = 0; index < ADDRESS_FAILURE_LIMIT; index += 1) {
      // A new forged X-Forwarded-For on every attempt, as an attacker would send.
      const headers = new Headers({ [PEER_HEADER]: "203.0.113.66", "x-forwarded-for": `10.1.${index}.1` });
      last = await attempt(`spray-${index}@example.com`, "guess", clientAddress(headers, trusted));
    }
    expect(last?.status).toBe("locked");
    const forged = new Headers({ [PEER_HEADER]: "203.0.113.66", "x-forwarded-for": "10.99.99.99" });
    expect((await attempt("victim@example.com", "the right password", clientAddress(forged, trusted))).status).toBe("locked");
    // Another address is not affected.
    expect((await attempt("victim@example.com", "the right password", "203.0.113.67")).status).toBe("ok");
  });

  it("counts per client behind a trusted proxy", async () => {
    clock = new Date(clock.getTime() + 60 * 60_000);
    const trusted = ["10.0.0.1"];
    const via = (client: string) => clientAddress(new Headers({ [PEER_HEADER]: "10.0.0.1", "x-forwarded-for": client }), trusted);
    for (let index = 0; index < ADDRESS_FAILURE_LIMIT; index += 1)
      await attempt(`proxy-${index}@example.com`, "guess", via("203.0.113.80"));
    expect((await attempt("proxy-x@example.com", "guess", via("203.0.113.80"))).status).toBe("locked");
    expect((await attempt("proxy-y@example.com", "guess", via("203.0.113.81"))).status).toBe("invalid");
  });

  it("starts an account afresh after a successful sign-in", async () => {
    clock = new Date(clock.getTime() + 60 * 60_000);
    await createTestStaff(handle.db, { email: "fresh@example.com", password: "the right password" });
    for (let index = 0; index < PAIR_FAILURE_LIMIT - 1; index += 1) await attempt("fresh@example.com", "guess", "192.0.2.50");
    expect((await attempt("fresh@example.com", "the right password", "192.0.2.50")).status).toBe("ok");
    waits.length = 0;
    expect((await attempt("fresh@example.com", "guess", "192.0.2.51")).status).toBe("invalid");
    expect(waits).toEqual([]);
  });

  it("refuses the demo accounts when they are not allowed (service mode)", async () => {
    await createTestStaff(handle.db, { email: "admin@sandbox.local", role: "admin", password: "sandbox-admin" });
    const result = await attemptPasswordSignIn(
      handle.db,
      { email: "admin@sandbox.local", password: "sandbox-admin", address: "192.0.2.60", allowDemoAccounts: false },
      options,
    );
    expect(result).toEqual({ status: "invalid" });
  });
});

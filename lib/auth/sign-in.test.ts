import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { auditEvents, staffUsers } from "@/lib/db/schema";
import { stubTestEnvironment, testDatabases, type TestDatabase } from "@/lib/db/testing";

import { clientAddress, PEER_HEADER } from "./address";
import { attemptPasswordSignIn } from "./sign-in";
import { createTestStaff } from "./testing";
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT, LOCK_MS, slowdownMs } from "./throttle";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

describe("slowdown", () => {
  it("starts after two failures and doubles up to a ceiling", () => {
    expect([0, 1, 2, 3, 4, 9].map((failures) => slowdownMs(failures, 0))).toEqual([0, 0, 500, 1000, 2000, 4000]);
    expect(slowdownMs(0, 9)).toBe(0);
    expect(slowdownMs(0, 11)).toBe(1000);
  });
});

describe.each(testDatabases())("password sign-in on $name", ({ open }) => {
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

  it("slows, then refuses an account even with the right password, from any address", async () => {
    await createTestStaff(handle.db, { email: "target@example.com", password: "the right password" });
    waits.length = 0;
    const results = [];
    for (let index = 0; index < ACCOUNT_FAILURE_LIMIT; index += 1) {
      results.push(await attempt("target@example.com", `guess ${index}`, `198.51.100.${index + 10}`));
    }
    expect(waits).toEqual([500, 1000, 2000]);
    expect(results.slice(0, -1).every((result) => result.status === "invalid")).toBe(true);
    expect(results.at(-1)).toEqual({ status: "locked", retryAfterMs: LOCK_MS });

    const locked = await attempt("target@example.com", "the right password", "198.51.100.99");
    expect(locked.status).toBe("locked");
    // Refused without touching the password: a denied event, not another failure.
    const [denied] = await handle.db
      .select({ outcome: auditEvents.outcome, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.ip, "198.51.100.99"));
    expect(denied).toEqual({ outcome: "denied", details: { method: "password", reason: "throttled" } });

    // The lock lasts a while, then the right password works again.
    clock = new Date(clock.getTime() + LOCK_MS + 1000);
    expect((await attempt("target@example.com", "the right password", "198.51.100.99")).status).toBe("ok");
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
    for (let index = 0; index < ACCOUNT_FAILURE_LIMIT - 1; index += 1) await attempt("fresh@example.com", "guess", "192.0.2.50");
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

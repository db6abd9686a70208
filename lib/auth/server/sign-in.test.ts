import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { staffUsers } from "@/lib/auth/server/tables";
import { rateLimits } from "@/lib/db/tables";
import { clientAddress, PEER_HEADER } from "@/lib/shared/client-address";
import { unlockStaffSignIn } from "@/lib/staff/server/staff";
import { createTestStaff } from "@/test/auth";
import { describeEachDatabase, withTestEnvironment, type TestDatabase } from "@/test/db";

import { hashPassword } from "./password";
import { attemptPasswordSignIn } from "./sign-in";
import { setPassword } from "./staff-store";
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT, addressGroup, FAILURE_WINDOW_MS, PAIR_FAILURE_LIMIT, signInBlock } from "./throttle";

withTestEnvironment();

describe("address groups", () => {
  it("counts IPv6 by its /64 and IPv4-mapped addresses as IPv4", () => {
    expect(addressGroup("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("2001:0db8:0001:0002:ffff:eeee:dddd:cccc")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("2001:db8::7")).toBe("2001:db8:0:0::/64");
    expect(addressGroup("2001:db8:1:3::1")).not.toBe(addressGroup("2001:db8:1:2::1"));
    expect(addressGroup("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(addressGroup("192.0.2.7")).toBe("192.0.2.7");
  });
});

describeEachDatabase("password sign-in on $name", ({ open }) => {
  let handle: TestDatabase;
  // Each test runs in a window of its own: the counters are per 15-minute window.
  let clock = new Date("2026-03-02T09:00:00Z");
  const nextWindow = () => {
    clock = new Date((Math.floor(clock.getTime() / FAILURE_WINDOW_MS) + 4) * FAILURE_WINDOW_MS + 1000);
  };
  const options = { now: () => clock };
  const attempt = (email: string, password: string, address: string) =>
    attemptPasswordSignIn(handle.db, { email, password, address, allowDemoAccounts: true }, options);
  /** How many passwords were checked and refused for this account: each writes one failure on the trail. */
  const checkedFailures = async (email: string) =>
    (
      await handle.db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "auth.sign_in"), eq(auditEvents.outcome, "failure"), eq(auditEvents.actorEmail, email)))
    ).length;

  beforeAll(async () => {
    handle = await open();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it("signs in with the right password, whatever the email's case", async () => {
    nextWindow();
    const user = await createTestStaff(handle.db, { email: "right@example.com", password: "the right password" });
    const result = await attempt(" Right@Example.com ", "the right password", "192.0.2.1");
    expect(result).toEqual({ status: "ok", user: { id: user.id, email: user.email, name: user.name, role: "analyst" } });
  });

  it("gives the same answer for an unknown email, a wrong password, a disabled and a single-sign-on-only account", async () => {
    nextWindow();
    const disabled = await createTestStaff(handle.db, { email: "off@example.com", password: "the right password" });
    await handle.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, disabled.id));
    const sso = await createTestStaff(handle.db, { email: "sso@example.com", password: "the right password" });
    await handle.db.update(staffUsers).set({ ssoOnly: true }).where(eq(staffUsers.id, sso.id));
    await createTestStaff(handle.db, { email: "known@example.com", password: "the right password" });
    const unknown = await attempt("nobody@example.com", "whatever it is", "192.0.2.2");
    expect(unknown).toEqual({ status: "invalid" });
    expect(await attempt("known@example.com", "not the password", "192.0.2.3")).toEqual(unknown);
    expect(await attempt("off@example.com", "the right password", "192.0.2.4")).toEqual(unknown);
    expect(await attempt("sso@example.com", "the right password", "192.0.2.4")).toEqual(unknown);
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
        { actorEmail: "sso@example.com", details: { method: "password", reason: "sso_only" }, ip: "192.0.2.4" },
      ]),
    );
  });

  it("never writes what was typed into the email box when it is not an email", async () => {
    nextWindow();
    await attempt("my secret password", "oops", "192.0.2.5");
    const rows = await handle.db.select().from(auditEvents).where(eq(auditEvents.ip, "192.0.2.5"));
    expect(JSON.stringify(rows)).not.toContain("my secret password");
  });

  it("checks at most the limit of 30 wrong passwords sent at once from one address", async () => {
    nextWindow();
    await createTestStaff(handle.db, { email: "burst@example.com", password: "the right password" });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) => attempt("burst@example.com", `guess ${index}`, "198.51.100.7")),
    );
    expect(await checkedFailures("burst@example.com")).toBeLessThanOrEqual(PAIR_FAILURE_LIMIT);
    expect(results.filter((result) => result.status === "invalid").length).toBeLessThanOrEqual(PAIR_FAILURE_LIMIT);
    expect(results.filter((result) => result.status === "locked").length).toBeGreaterThanOrEqual(30 - PAIR_FAILURE_LIMIT);
    // The guessing address is refused even with the right password, without the password being checked.
    expect((await attempt("burst@example.com", "the right password", "198.51.100.7")).status).toBe("locked");
    // The owner, elsewhere, gets in.
    expect((await attempt("burst@example.com", "the right password", "198.51.100.99")).status).toBe("ok");
  });

  it("locks out only the address that guesses, until its window ends", async () => {
    nextWindow();
    await createTestStaff(handle.db, { email: "target@example.com", password: "the right password" });
    for (let index = 0; index < PAIR_FAILURE_LIMIT; index += 1) {
      expect((await attempt("target@example.com", `guess ${index}`, "198.51.100.10")).status).toBe("invalid");
    }
    const locked = await attempt("target@example.com", "the right password", "198.51.100.10");
    expect(locked).toMatchObject({ status: "locked", scope: "account_address" });
    const [denied] = await handle.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.ip, "198.51.100.10"), eq(auditEvents.outcome, "denied")));
    expect(denied?.details).toEqual({ method: "password", reason: "throttled", scope: "account_address" });
    nextWindow();
    expect((await attempt("target@example.com", "the right password", "198.51.100.10")).status).toBe("ok");
  });

  it("counts an IPv6 network's addresses together", async () => {
    nextWindow();
    await createTestStaff(handle.db, { email: "six@example.com", password: "the right password" });
    for (let index = 0; index < PAIR_FAILURE_LIMIT; index += 1) await attempt("six@example.com", "guess", `2001:db8:5:6::${index + 1}`);
    expect((await attempt("six@example.com", "the right password", "2001:db8:5:6:abcd::1")).status).toBe("locked");
    expect((await attempt("six@example.com", "the right password", "2001:db8:5:7::1")).status).toBe("ok");
  });

  it("holds an account after the account-wide limit of guesses spread over many addresses, until an admin lifts it", async () => {
    nextWindow();
    const admin = await createTestStaff(handle.db, { email: "boss@example.com", role: "admin", password: "the right password" });
    const owner = await createTestStaff(handle.db, { email: "spread@example.com", password: "the right password" });
    // 32 guesses at once from 8 addresses (4 each: under the per-address limit).
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, index) => attempt("spread@example.com", `guess ${index}`, `203.0.113.${10 + (index % 8)}`)),
    );
    expect(await checkedFailures("spread@example.com")).toBeLessThanOrEqual(ACCOUNT_FAILURE_LIMIT);
    expect(results.filter((result) => result.status === "locked").length).toBeGreaterThanOrEqual(32 - ACCOUNT_FAILURE_LIMIT);
    // From a new address too: the password form refuses the account for the window (a passkey still signs in).
    expect(await attempt("spread@example.com", "the right password", "203.0.113.99")).toMatchObject({ status: "locked", scope: "account" });
    const block = await signInBlock(handle.db, "spread@example.com", clock);
    expect(block.accountLocked).toBe(true);
    expect(block.recentFailures).toBe(ACCOUNT_FAILURE_LIMIT);

    const actor = { id: admin.id, email: admin.email, sessionId: "s" };
    await unlockStaffSignIn(handle.db, { actor, ip: "192.0.2.200", id: owner.id, now: clock });
    expect(await signInBlock(handle.db, "spread@example.com", clock)).toEqual({
      lockedUntil: null,
      lockedAddresses: [],
      recentFailures: 0,
      accountLocked: false,
    });
    expect((await attempt("spread@example.com", "the right password", "203.0.113.10")).status).toBe("ok");
    const [event] = await handle.db
      .select({ actorId: auditEvents.actorId, target: auditEvents.target })
      .from(auditEvents)
      .where(eq(auditEvents.action, "staff.sign_in_unlock"));
    expect(event).toEqual({ actorId: admin.id, target: owner.id });
    // Other accounts' counters are untouched (the prefix match is exact).
    expect(await handle.db.select().from(rateLimits).where(like(rateLimits.key, "sign-in:address:203.0.113.1%"))).not.toEqual([]);
  });

  it("refuses an address that tries many accounts, and a forged X-Forwarded-For does not reset it", async () => {
    nextWindow();
    await createTestStaff(handle.db, { email: "victim@example.com", password: "the right password" });
    const trusted: string[] = [];
    for (let index = 0; index < ADDRESS_FAILURE_LIMIT; index += 1) {
      // A new forged X-Forwarded-For on every attempt, as an attacker would send.
      const headers = new Headers({ [PEER_HEADER]: "203.0.113.66", "x-forwarded-for": `10.1.${index}.1` });
      expect((await attempt(`spray-${index}@example.com`, "guess", clientAddress(headers, trusted))).status).toBe("invalid");
    }
    const forged = new Headers({ [PEER_HEADER]: "203.0.113.66", "x-forwarded-for": "10.99.99.99" });
    expect(await attempt("victim@example.com", "the right password", clientAddress(forged, trusted))).toMatchObject({
      status: "locked",
      scope: "address",
    });
    // Another address is not affected.
    expect((await attempt("victim@example.com", "the right password", "203.0.113.67")).status).toBe("ok");
  });

  it("counts per client behind a trusted proxy", async () => {
    nextWindow();
    const trusted = ["10.0.0.1"];
    const via = (client: string) => clientAddress(new Headers({ [PEER_HEADER]: "10.0.0.1", "x-forwarded-for": client }), trusted);
    for (let index = 0; index < ADDRESS_FAILURE_LIMIT; index += 1)
      await attempt(`proxy-${index}@example.com`, "guess", via("203.0.113.80"));
    expect((await attempt("proxy-x@example.com", "guess", via("203.0.113.80"))).status).toBe("locked");
    expect((await attempt("proxy-y@example.com", "guess", via("203.0.113.81"))).status).toBe("invalid");
  });

  it("starts an account afresh after a successful sign-in", async () => {
    nextWindow();
    await createTestStaff(handle.db, { email: "fresh@example.com", password: "the right password" });
    for (let index = 0; index < PAIR_FAILURE_LIMIT - 1; index += 1) await attempt("fresh@example.com", "guess", "192.0.2.50");
    expect((await attempt("fresh@example.com", "the right password", "192.0.2.50")).status).toBe("ok");
    for (let index = 0; index < PAIR_FAILURE_LIMIT; index += 1) {
      expect((await attempt("fresh@example.com", "guess", "192.0.2.50")).status).toBe("invalid");
    }
  });

  it("accepts a one-time password once, within its hours, and never for two sign-ins racing with it", async () => {
    nextWindow();
    const invited = await createTestStaff(handle.db, { email: "invited@example.com" });
    await setPassword(handle.db, invited.id, await hashPassword("one-time password 1"), { mustChangePassword: true }, clock);
    const results = await Promise.all([0, 1, 2].map(() => attempt("invited@example.com", "one-time password 1", "192.0.2.70")));
    expect(results.filter((result) => result.status === "ok")).toHaveLength(1);
    expect((await attempt("invited@example.com", "one-time password 1", "192.0.2.71")).status).toBe("invalid");

    // A new one, never used: it stops working after ONE_TIME_PASSWORD_HOURS (72 by default).
    await setPassword(handle.db, invited.id, await hashPassword("one-time password 2"), { mustChangePassword: true }, clock);
    const issued = clock;
    clock = new Date(issued.getTime() + 71 * 3_600_000);
    const fresh = await attemptPasswordSignIn(
      handle.db,
      { email: "invited@example.com", password: "wrong", address: "192.0.2.72", allowDemoAccounts: true },
      options,
    );
    expect(fresh.status).toBe("invalid");
    clock = new Date(issued.getTime() + 73 * 3_600_000);
    expect((await attempt("invited@example.com", "one-time password 2", "192.0.2.73")).status).toBe("invalid");
    const [expired] = await handle.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.ip, "192.0.2.73"), eq(auditEvents.outcome, "failure")));
    expect(expired?.details).toEqual({ method: "password", reason: "one_time_password_expired" });
    // Issued again, it works (once).
    await setPassword(handle.db, invited.id, await hashPassword("one-time password 3"), { mustChangePassword: true }, clock);
    expect((await attempt("invited@example.com", "one-time password 3", "192.0.2.74")).status).toBe("ok");
  });

  it("pins the one-time password's end: the right one works a second before its 72nd hour and not at it", async () => {
    nextWindow();
    const invited = await createTestStaff(handle.db, { email: "boundary@example.com" });
    const hours = (issued: Date, count: number, minusMs = 0) => new Date(issued.getTime() + count * 3_600_000 - minusMs);
    const expiredAt = async (address: string) =>
      (
        await handle.db
          .select({ details: auditEvents.details })
          .from(auditEvents)
          .where(and(eq(auditEvents.ip, address), eq(auditEvents.outcome, "failure")))
      ).map((row) => row.details);

    // Exactly ONE_TIME_PASSWORD_HOURS (72 by default) after it was issued: expired, though right.
    let issued = clock;
    await setPassword(handle.db, invited.id, await hashPassword("boundary password 1"), { mustChangePassword: true }, issued);
    clock = hours(issued, 72);
    expect((await attempt("boundary@example.com", "boundary password 1", "192.0.2.90")).status).toBe("invalid");
    expect(await expiredAt("192.0.2.90")).toEqual([{ method: "password", reason: "one_time_password_expired" }]);

    // A second before: the right one signs in.
    issued = clock;
    await setPassword(handle.db, invited.id, await hashPassword("boundary password 2"), { mustChangePassword: true }, issued);
    clock = hours(issued, 72, 1000);
    expect((await attempt("boundary@example.com", "boundary password 2", "192.0.2.91")).status).toBe("ok");
    expect(await expiredAt("192.0.2.91")).toEqual([]);
  });

  it("refuses the demo accounts when they are not allowed (service mode)", async () => {
    nextWindow();
    await createTestStaff(handle.db, { email: "admin@sandbox.local", role: "admin", password: "sandbox-admin" });
    const result = await attemptPasswordSignIn(
      handle.db,
      { email: "admin@sandbox.local", password: "sandbox-admin", address: "192.0.2.60", allowDemoAccounts: false },
      options,
    );
    expect(result).toEqual({ status: "invalid" });
  });
});

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { hashPassword } from "@/lib/auth/server/password";
import { DEMO_ACCOUNTS, seedDemoAccounts, seedDemoAccountsIfConfigured } from "@/lib/auth/server/seed";
import { countActiveAdmins } from "@/lib/auth/server/staff-access";
import { claimStaffForOidc } from "@/lib/auth/server/staff-oidc";
import { createStaff, getStaffByEmail, LastAdminError, listStaff, StaffEmailTakenError, updateStaff } from "@/lib/auth/server/staff-store";
import { staffUsers } from "@/lib/auth/server/tables";
import { consume, countInWindow, increment, lock, lockedUntil } from "@/lib/db/rate-limit";
import { createTestStaff } from "@/test/auth";
import { describeEachDatabase, withDatabase, withTestEnvironment, type TestDatabase } from "@/test/db";

import { createDatabase, MIGRATIONS_FOLDER, openConfiguredDatabase } from "./client";

withTestEnvironment();

async function rows<T>(db: TestDatabase["db"], query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

describeEachDatabase("database layer on $name", ({ name, open }) => {
  const handle = withDatabase(open);

  it("applies the migrations from zero, and applying them again changes nothing", async () => {
    const tables = await rows<{ table_name: string }>(
      handle.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((row) => row.table_name)).toEqual([
      "audit_chain_head",
      "audit_checkpoints",
      "audit_events",
      "auth_challenges",
      "case_entries",
      "case_queue_members",
      "case_queues",
      "case_reverifications",
      "case_routing_rules",
      "case_routing_settings",
      "case_templates",
      "cases",
      "connections",
      "document_crops",
      "integration_keys",
      "job_leases",
      "live_events",
      "monitoring_alerts",
      "monitoring_screenings",
      "monitoring_settings",
      "notification_cases",
      "notification_outbox",
      "notifications",
      "privacy_erasures",
      "privacy_requests",
      "rate_limits",
      "saved_views",
      "search_index_erased",
      "staff_connection_access",
      "staff_factors",
      "staff_recovery_codes",
      "staff_roles",
      "staff_sessions",
      "staff_users",
      "suspicious_activity_reports",
      "upstream_calls",
      "verification_events",
      "verification_index",
      "verification_mirror",
      "verification_mirror_days",
      "webhook_deliveries",
    ]);
    const applied = await rows<{ count: number }>(handle.db, sql`select count(*)::int as count from drizzle.__drizzle_migrations`);
    const journal = (await import(`${MIGRATIONS_FOLDER}/meta/_journal.json`)) as { default: { entries: unknown[] } };
    expect(applied[0]?.count).toBe(journal.default.entries.length);
    if (name === "pglite") {
      // Re-running on the same database is a no-op (the app migrates on every start).
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(handle.db as never, {
        migrationsFolder: MIGRATIONS_FOLDER,
      });
      const again = await rows<{ count: number }>(handle.db, sql`select count(*)::int as count from drizzle.__drizzle_migrations`);
      expect(again[0]?.count).toBe(applied[0]?.count);
    }
  });

  it("keeps emails unique regardless of case, at the database level", async () => {
    await handle.db.insert(staffUsers).values({ email: "Case.Test@Example.com", name: "A", role: "analyst" });
    await expect(handle.db.insert(staffUsers).values({ email: "case.test@example.COM", name: "B", role: "analyst" })).rejects.toThrow();
    await expect(
      createStaff(handle.db, {
        email: "CASE.TEST@example.com",
        name: "C",
        role: "admin",
        passwordHash: null,
        mustChangePassword: false,
      }),
    ).rejects.toBeInstanceOf(StaffEmailTakenError);
  });

  it("refuses a role other than analyst or admin", async () => {
    await expect(
      handle.db.execute(sql`insert into staff_users (email, name, role) values ('root@example.com', 'Root', 'root')`),
    ).rejects.toThrow();
  });

  it("refuses an audit outcome outside the list", async () => {
    await expect(
      handle.db.execute(sql`insert into audit_events (at, action, outcome, prev_hash, hash) values (now(), 'x.y', 'maybe', '', '')`),
    ).rejects.toThrow();
  });

  it("returns staff as DTOs without the password hash", async () => {
    await createStaff(handle.db, {
      email: "dto@example.com",
      name: "Dto",
      role: "analyst",
      passwordHash: await hashPassword("a-long-password-1"),
      mustChangePassword: true,
    });
    const listed = await listStaff(handle.db);
    const dto = listed.find((user) => user.email === "dto@example.com");
    expect(dto).toMatchObject({
      role: "analyst",
      hasPassword: true,
      mustChangePassword: true,
      disabled: false,
      oidcLinked: false,
    });
    expect(JSON.stringify(listed)).not.toContain("scrypt");
    expect(Object.keys(dto ?? {})).not.toContain("passwordHash");
  });

  describe("the last active admin", () => {
    it("can be neither demoted nor disabled; another admin can", async () => {
      // Start from a known state: every existing admin demoted except one.
      const only = await createTestStaff(handle.db, { role: "admin", email: "only-admin@example.com" });
      for (const user of await listStaff(handle.db)) {
        if (user.role === "admin" && user.id !== only.id) await updateStaff(handle.db, user.id, { role: "analyst" });
      }
      expect(await countActiveAdmins(handle.db)).toBe(1);

      await expect(updateStaff(handle.db, only.id, { role: "analyst" })).rejects.toBeInstanceOf(LastAdminError);
      await expect(updateStaff(handle.db, only.id, { disabled: true })).rejects.toBeInstanceOf(LastAdminError);
      expect((await getStaffByEmail(handle.db, "only-admin@example.com"))?.role).toBe("admin");

      const second = await createTestStaff(handle.db, { role: "admin", email: "second-admin@example.com" });
      const { after } = await updateStaff(handle.db, only.id, {
        disabled: true,
      });
      expect(after.disabled).toBe(true);
      // A disabled admin does not count: the second is now the last one.
      await expect(updateStaff(handle.db, second.id, { role: "analyst" })).rejects.toBeInstanceOf(LastAdminError);
      await updateStaff(handle.db, only.id, { disabled: false });
    });

    it("holds when two admins demote each other at the same moment", async () => {
      const admins = (await listStaff(handle.db)).filter((user) => user.role === "admin" && !user.disabled);
      expect(admins.length).toBe(2);
      const results = await Promise.allSettled(admins.map((admin) => updateStaff(handle.db, admin.id, { role: "analyst" })));
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      expect(await countActiveAdmins(handle.db)).toBe(1);
    });
  });

  it("binds an OIDC identity to an existing account by email and never creates one", async () => {
    const user = await createTestStaff(handle.db, { role: "analyst", email: "sso@example.com" });
    expect(await claimStaffForOidc(handle.db, { email: "nobody@example.com", subject: "sub-1" })).toEqual({
      status: "refused",
      reason: "unknown_account",
    });
    const first = await claimStaffForOidc(handle.db, { email: "SSO@example.com", subject: "sub-1" });
    expect(first.status === "claimed" && first.staff.id).toBe(user.id);
    const again = await claimStaffForOidc(handle.db, { email: "sso@example.com", subject: "sub-1" });
    expect(again.status === "claimed" && again.staff.id).toBe(user.id);
    // Another identity claiming the same email is refused, and so is this identity claiming another account.
    expect(await claimStaffForOidc(handle.db, { email: "sso@example.com", subject: "sub-2" })).toEqual({
      status: "refused",
      reason: "account_bound_to_other_subject",
    });
    await createTestStaff(handle.db, { role: "analyst", email: "sso-other@example.com" });
    expect(await claimStaffForOidc(handle.db, { email: "sso-other@example.com", subject: "sub-1" })).toEqual({
      status: "refused",
      reason: "subject_bound_to_other_account",
    });
    expect(await getStaffByEmail(handle.db, "nobody@example.com")).toBeNull();
  });

  it("refuses a disabled account to its own bound identity", async () => {
    const user = await createStaff(handle.db, {
      email: "sso-off@example.com",
      name: "Off",
      role: "analyst",
      passwordHash: null,
      mustChangePassword: false,
    });
    expect((await claimStaffForOidc(handle.db, { email: user.email, subject: "sub-off" })).status).toBe("claimed");
    await updateStaff(handle.db, user.id, { disabled: true });
    expect(await claimStaffForOidc(handle.db, { email: user.email, subject: "sub-off" })).toEqual({
      status: "refused",
      reason: "disabled",
    });
  });

  it("binds an account once when two identities sign in for the first time together", async () => {
    await createStaff(handle.db, {
      email: "sso-race@example.com",
      name: "Race",
      role: "analyst",
      passwordHash: null,
      mustChangePassword: false,
    });
    const results = await Promise.all(
      ["sub-race-a", "sub-race-b", "sub-race-c"].map((subject) => claimStaffForOidc(handle.db, { email: "sso-race@example.com", subject })),
    );
    expect(results.filter((result) => result.status === "claimed")).toHaveLength(1);
    expect(results.filter((result) => result.status === "refused").map((result) => "reason" in result && result.reason)).toEqual([
      "account_bound_to_other_subject",
      "account_bound_to_other_subject",
    ]);
  });

  it("lets one identity bind only one account when it signs in with two emails together", async () => {
    const emails = ["sso-twin-a@example.com", "sso-twin-b@example.com"];
    for (const email of emails)
      await createStaff(handle.db, { email, name: "Twin", role: "analyst", passwordHash: null, mustChangePassword: false });
    const results = await Promise.all(emails.map((email) => claimStaffForOidc(handle.db, { email, subject: "sub-twin" })));
    expect(results.map((result) => result.status).sort()).toEqual(["claimed", "refused"]);
    expect(results.find((result) => result.status === "refused")).toEqual({ status: "refused", reason: "subject_bound_to_other_account" });
  });

  it("seeds the demo accounts once", async () => {
    await seedDemoAccounts(handle.db);
    await seedDemoAccounts(handle.db);
    for (const account of DEMO_ACCOUNTS) {
      expect((await getStaffByEmail(handle.db, account.email))?.role).toBe(account.role);
    }
    const created = await rows<{ count: number }>(
      handle.db,
      sql`select count(*)::int as count from audit_events where action = 'staff.create' and details->>'via' = 'seed'`,
    );
    expect(created[0]?.count).toBe(DEMO_ACCOUNTS.length);
  });

  it("seeds the demo accounts only when configured, and opening a database seeds nothing", async () => {
    const fresh = await open();
    const emails = async () => (await listStaff(fresh.db)).map((staff) => staff.email).sort();
    try {
      expect(await emails()).toEqual([]);
      expect(await seedDemoAccountsIfConfigured(fresh.db, false)).toBe(false);
      expect(await emails()).toEqual([]);
      expect(await seedDemoAccountsIfConfigured(fresh.db, true)).toBe(true);
      expect(await emails()).toEqual(DEMO_ACCOUNTS.map((account) => account.email).sort());
    } finally {
      await fresh.dispose();
    }
  });

  describe("rate-limit counters", () => {
    const minute = 60_000;
    const t0 = new Date("2026-03-01T12:00:10Z");

    it("count per key and window", async () => {
      expect(await increment(handle.db, "test:a", minute, t0)).toBe(1);
      expect(await increment(handle.db, "test:a", minute, t0)).toBe(2);
      expect(await increment(handle.db, "test:b", minute, t0)).toBe(1);
      expect(await countInWindow(handle.db, "test:a", minute, t0)).toBe(2);
      expect(await countInWindow(handle.db, "test:a", minute, new Date(t0.getTime() + minute))).toBe(0);
    });

    it("never lose a count under concurrent increments", async () => {
      await Promise.all(Array.from({ length: 20 }, () => increment(handle.db, "test:concurrent", minute, t0)));
      expect(await countInWindow(handle.db, "test:concurrent", minute, t0)).toBe(20);
    });

    it("allow uses up to the limit and say when to come back", async () => {
      const first = await consume(handle.db, "test:quota", { limit: 2, windowMs: minute }, t0);
      await consume(handle.db, "test:quota", { limit: 2, windowMs: minute }, t0);
      const third = await consume(handle.db, "test:quota", { limit: 2, windowMs: minute }, t0);
      expect(first.allowed).toBe(true);
      expect(third).toMatchObject({
        allowed: false,
        count: 3,
        retryAfterMs: 50_000,
      });
    });

    it("lock a key until a time, extending but never shortening", async () => {
      const until = new Date(t0.getTime() + 10 * minute);
      await lock(handle.db, "lock:test", until);
      await lock(handle.db, "lock:test", new Date(t0.getTime() + minute));
      expect((await lockedUntil(handle.db, "lock:test", t0))?.getTime()).toBe(until.getTime());
      expect(await lockedUntil(handle.db, "lock:test", new Date(until.getTime() + 1))).toBeNull();
    });
  });

  // PostgreSQL only: PGlite is one connection inside one process, so there is no race to test.
  if (name === "postgres")
    it("lets instances starting together on one PostgreSQL migrate once", async () => {
      // Instances starting together: the advisory lock serialises them and the journal skips done work.
      const url = (
        handle.db as unknown as {
          $client: { options: { connectionString: string } };
        }
      ).$client.options.connectionString;
      const [a, b] = await Promise.all([createDatabase({ url }), createDatabase({ url })]);
      await a.close();
      await b.close();
      const applied = await rows<{ hash: string }>(handle.db, sql`select hash from drizzle.__drizzle_migrations`);
      expect(new Set(applied.map((row) => row.hash)).size).toBe(applied.length);
    });
});

describe("the embedded database", () => {
  it("opens in the data folder with buffers sized for a dashboard, not for a database server", async () => {
    // stubTestEnvironment gave this file a fresh DATA_DIR and no DATABASE_URL.
    const handle = await openConfiguredDatabase();
    try {
      const [setting] = await rows<{ shared_buffers: string }>(handle.db, sql`show shared_buffers`);
      expect(setting?.shared_buffers).toBe("16MB");
    } finally {
      await handle.close();
    }
  });
});

import { eq } from "drizzle-orm";
import { decode, encode } from "next-auth/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";

import { httpStatusOf } from "@/lib/api/errors";
import { staffSessions, staffUsers } from "@/lib/auth/server/tables";
import { parseCookieHeader } from "@/lib/shared/cookie-header";
import { AppError } from "@/lib/shared/errors";
import { apiRequest, createTestStaff, sessionCookieFor, signedInSession } from "@/test/auth";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, TEST_SECRETS, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { SESSION_COOKIE } from "./cookies";
import { requireUser, type Access } from "./require-role";
import { IDLE_TIMEOUT_MS, revokeSession, validateSession } from "./sessions";

withTestEnvironment();

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof AppError) return httpStatusOf(error);
    throw error;
  }
}

describe("cookie header parsing", () => {
  it("reads names and values, keeping the first of duplicates", () => {
    expect(parseCookieHeader("a=1; b=x%20y; a=2; broken; =v")).toEqual({ a: "1", b: "x y" });
    expect(parseCookieHeader(null)).toEqual({});
  });
});

describeEachDatabase("requireUser on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  afterEach(() => vi.useRealTimers());

  const call = (cookie?: string, access: Access = "verifications.read") => statusOf(requireUser(apiRequest("/api/x", { cookie }), access));

  it("answers 401 without a session and with a forged or foreign cookie", async () => {
    expect(await call()).toBe(401);
    expect(await call(`${SESSION_COOKIE}=not-a-jwt`)).toBe(401);
    const foreign = await encode({ token: { uid: "x", sid: "y" }, secret: "another-secret-0123456789abcdefghijkl" });
    expect(await call(`${SESSION_COOKIE}=${foreign}`)).toBe(401);
    // Correctly signed, but naming a session the server never opened.
    const invented = await encode({ token: { uid: crypto.randomUUID(), sid: "invented" }, secret: TEST_SECRETS.NEXTAUTH_SECRET });
    expect(await call(`${SESSION_COOKIE}=${invented}`)).toBe(401);
  });

  it("lets an analyst through analyst routes and answers 403 on admin routes; an admin passes both", async () => {
    const analyst = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role: "analyst" }));
    const admin = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role: "admin" }));
    expect(await call(analyst)).toBe(200);
    expect(await call(analyst, "staff.manage")).toBe(403);
    expect(await call(admin)).toBe(200);
    expect(await call(admin, "staff.manage")).toBe(200);
    expect((await requireUser(apiRequest("/api/x", { cookie: admin }), "staff.manage")).role).toBe("admin");
  });

  it("takes the role from the database, so a demotion applies at once", async () => {
    const user = await createTestStaff(handle.db, { role: "admin" });
    const cookie = await sessionCookieFor(handle.db, user);
    await handle.db.update(staffUsers).set({ role: "analyst" }).where(eq(staffUsers.id, user.id));
    expect(await call(cookie, "staff.manage")).toBe(403);
  });

  it("stops a copied cookie once its session is revoked (sign-out)", async () => {
    const user = await createTestStaff(handle.db);
    const cookie = await sessionCookieFor(handle.db, user);
    const copy = `${cookie}`;
    expect(await call(copy)).toBe(200);
    const [session] = await handle.db.select({ id: staffSessions.id }).from(staffSessions).where(eq(staffSessions.userId, user.id));
    await revokeSession(handle.db, session!.id);
    expect(await call(copy)).toBe(401);
  });

  it("refuses a disabled user on the next request", async () => {
    const user = await createTestStaff(handle.db);
    const cookie = await sessionCookieFor(handle.db, user);
    await handle.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, user.id));
    expect(await call(cookie)).toBe(401);
  });

  it("refuses a user who must still replace a one-time password, except where allowed", async () => {
    const user = await createTestStaff(handle.db);
    await handle.db.update(staffUsers).set({ mustChangePassword: true }).where(eq(staffUsers.id, user.id));
    const cookie = await sessionCookieFor(handle.db, user);
    expect(await call(cookie)).toBe(403);
    expect(await statusOf(requireUser(apiRequest("/api/account/password", { cookie }), "signed_in", { during: ["password_change"] }))).toBe(
      200,
    );
  });

  it("ends idle sessions and sessions past the absolute limit, and keeps active ones alive", async () => {
    const { ids, start } = await signedInSession(handle.db);
    // Active every 20 minutes: stays signed in...
    for (let minutes = 20; minutes <= 11 * 60; minutes += 20) {
      expect(await validateSession(handle.db, ids, new Date(start + minutes * 60_000))).not.toBeNull();
    }
    // ...until the absolute limit (12 h), however active.
    expect(await validateSession(handle.db, ids, new Date(start + 12 * 60 * 60_000 + 60_000))).toBeNull();

    const idle = await createTestStaff(handle.db);
    await sessionCookieFor(handle.db, idle);
    const [idleSession] = await handle.db.select().from(staffSessions).where(eq(staffSessions.userId, idle.id));
    const idleIds = { sessionId: idleSession!.id, userId: idle.id };
    expect(await validateSession(handle.db, idleIds, new Date(idleSession!.createdAt.getTime() + IDLE_TIMEOUT_MS + 1000))).toBeNull();
  });

  it("a rotation of NEXTAUTH_SECRET keeps a session made under the old key; retiring that key signs its member out", async () => {
    const newer = "rotated-nextauth-secret-0123456789abcdef";
    const user = await createTestStaff(handle.db);
    const old = await sessionCookieFor(handle.db, user);
    try {
      stubConfigEnv({ NEXTAUTH_SECRET: `2026-11-28T1943:${newer},1:${TEST_SECRETS.NEXTAUTH_SECRET}` });
      expect(await call(old)).toBe(200);
      // A new sign-in is encoded under the new key alone.
      const fresh = await sessionCookieFor(handle.db, user);
      expect(await decode({ token: fresh.split("=")[1]!, secret: newer })).toMatchObject({ uid: user.id });
      await expect(decode({ token: fresh.split("=")[1]!, secret: TEST_SECRETS.NEXTAUTH_SECRET })).rejects.toThrow();
      expect(await call(fresh)).toBe(200);

      stubConfigEnv({ NEXTAUTH_SECRET: `2026-11-28T1943:${newer}` });
      // Signed out (no session: 401, and a page sends the member to sign in), not an error.
      expect(await call(old)).toBe(401);
      expect(await call(fresh)).toBe(200);
    } finally {
      stubConfigEnv({ NEXTAUTH_SECRET: TEST_SECRETS.NEXTAUTH_SECRET });
    }
  });
});

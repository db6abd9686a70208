import "server-only";

import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";

import type { Permission } from "@/lib/auth/permissions";
import type { Role } from "@/lib/auth/roles";
import { sessionCookieName } from "@/lib/auth/server/cookies";
import { hashPassword } from "@/lib/auth/server/password";
import { encodeSessionToken } from "@/lib/auth/server/session-token";
import { startSession } from "@/lib/auth/server/sessions";
import { createStaff } from "@/lib/auth/server/staff-store";
import { staffRoles, staffSessions } from "@/lib/auth/server/tables";
import { type SignInMethod, type StaffUserDto } from "@/lib/auth/types";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";

/*
 * Test helpers: real staff accounts and real signed session cookies, exactly as next-auth would set
 * them after a sign-in, so route handlers can be called directly with a Request.
 */

let counter = 0;

export async function createTestStaff(
  db: Database,
  { role = "analyst", password, email }: { role?: Role; password?: string; email?: string } = {},
): Promise<StaffUserDto> {
  counter += 1;
  return createStaff(db, {
    email: email ?? `${role}-${Date.now()}-${counter}@test.local`,
    name: `Test ${role}`,
    role,
    passwordHash: password ? await hashPassword(password) : null,
    mustChangePassword: false,
  });
}

/** A staff member and the session cookie of their sign-in (createTestStaff, then sessionCookieFor). */
export async function signedInStaff(
  db: Database,
  options: Parameters<typeof createTestStaff>[1] = {},
): Promise<{ user: StaffUserDto; cookie: string }> {
  const user = await createTestStaff(db, options);
  return { user, cookie: await sessionCookieFor(db, user) };
}

/** A new staff member signed in once: when their session started, and the ids the session checks take. */
export async function signedInSession(db: Database): Promise<{ ids: { sessionId: string; userId: string }; start: number }> {
  const user = await createTestStaff(db);
  await sessionCookieFor(db, user);
  const [session] = await db.select().from(staffSessions).where(eq(staffSessions.userId, user.id));
  return { ids: { sessionId: session!.id, userId: user.id }, start: session!.createdAt.getTime() };
}

/** A staff member whose custom role, of their own and named after `label`, holds exactly `permissions`. */
export async function createStaffHolding(db: Database, permissions: Permission[], label = "member"): Promise<StaffUserDto> {
  counter += 1;
  const [role] = await db
    .insert(staffRoles)
    .values({ name: `${label} ${Date.now()}-${counter}`, permissions })
    .returning({ id: staffRoles.id });
  return createStaff(db, {
    email: `${label.replaceAll(" ", "-")}-${Date.now()}-${counter}@test.local`,
    name: label,
    role: role!.id,
    passwordHash: null,
    mustChangePassword: false,
  });
}

/** Starts a server-side session and returns the `Cookie` header value that carries it. */
export async function sessionCookieFor(
  db: Database,
  user: Pick<StaffUserDto, "id" | "email" | "name" | "role">,
  {
    method = "password",
    stepUp = true,
    userAgent = null,
  }: {
    method?: SignInMethod;
    /** The session starts with a fresh second factor (a sensitive route passes its step-up); false: a plain sign-in. */
    stepUp?: boolean;
    userAgent?: string | null;
  } = {},
): Promise<string> {
  const sessionId = await startSession(db, {
    userId: user.id,
    email: user.email,
    method,
    ip: "127.0.0.1",
    secondFactor: stepUp,
    userAgent,
  });
  const token = await encodeSessionToken(config().secrets.nextAuth, {
    token: { sub: user.id, email: user.email, name: user.name, uid: user.id, sid: sessionId, role: user.role, method },
  });
  return `${sessionCookieName()}=${token}`;
}

/** A request to a dashboard route, optionally with a session cookie and a JSON body (a NextRequest, which
 * handlers typed either way accept). A non-GET request carries the dashboard's own Origin and a GET
 * `Sec-Fetch-Site: same-origin`, as the browser sends them from the dashboard's pages; pass `headers` to test others. */
export function apiRequest(
  url: string,
  {
    method = "GET",
    cookie,
    body,
    headers = {},
  }: { method?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): NextRequest {
  const target = new URL(url, "http://localhost:3000");
  const all: Record<string, string> =
    method === "GET" || method === "HEAD" ? { "sec-fetch-site": "same-origin", ...headers } : { origin: target.origin, ...headers };
  if (cookie) all.cookie = cookie;
  if (body !== undefined) all["content-type"] = "application/json";
  return new NextRequest(target, {
    method,
    headers: all,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

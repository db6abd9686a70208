import "server-only";

import { randomBytes } from "node:crypto";

import { and, eq, isNull, ne } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { resolvePermissions } from "@/lib/auth/permissions";
import { staffRoles, staffSessions, staffUsers } from "@/lib/auth/server/schema";
import type { SignInMethod, StaffSession } from "@/lib/auth/types";
import type { Database } from "@/lib/db/client";

import { forgetLocally } from "./session-invalidation";

/*
 * Server-side sessions behind next-auth's JWT cookie. The cookie carries the user id and this row's
 * id; every request checks the row (through the per-instance cache of lib/auth/server/session-cache.ts, which
 * every instance is told to forget on any change), so signing out, disabling a user or leaving a session
 * idle takes effect on the next request, on every instance.
 */

export const IDLE_TIMEOUT_MS = 30 * 60_000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60_000;
// Writing last_seen_at on every request would turn each read into a write; once a minute is enough
// for a 30-minute idle timeout.
export const TOUCH_INTERVAL_MS = 60_000;

/** Opens a session and records the sign-in, together: no session exists without its audit event. */
export async function startSession(
  db: Database,
  { userId, email, method, ip }: { userId: string; email: string; method: SignInMethod; ip: string | null },
  now = new Date(),
): Promise<string> {
  const sessionId = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    await tx.insert(staffSessions).values({ id: sessionId, userId, method, createdAt: now, lastSeenAt: now });
    await tx.update(staffUsers).set({ lastSignInAt: now }).where(eq(staffUsers.id, userId));
    await recordEvent({ actor: { id: userId, email }, action: "auth.sign_in", outcome: "success", ip, details: { method }, at: now }, tx);
  });
  return sessionId;
}

/** A live session with the times its cache entry needs. */
export interface LiveSession {
  session: StaffSession;
  createdAt: Date;
  lastSeenAt: Date;
}

/**
 * The session when it is live, else null (unknown, revoked, idle, too old, user disabled), read from the
 * database; touches last_seen_at at most once a minute. Route handlers and pages go through the per-instance
 * cache (lib/auth/server/session-cache.ts) rather than calling this on every request.
 */
export async function readLiveSession(
  db: Database,
  { sessionId, userId }: { sessionId: string; userId: string },
  now = new Date(),
): Promise<LiveSession | null> {
  const [row] = await db
    .select({
      id: staffUsers.id,
      email: staffUsers.email,
      name: staffUsers.name,
      role: staffUsers.role,
      customRoleId: staffUsers.customRoleId,
      customRoleName: staffRoles.name,
      customPermissions: staffRoles.permissions,
      customRetiredAt: staffRoles.retiredAt,
      disabled: staffUsers.disabled,
      mustChangePassword: staffUsers.mustChangePassword,
      method: staffSessions.method,
      createdAt: staffSessions.createdAt,
      lastSeenAt: staffSessions.lastSeenAt,
      revokedAt: staffSessions.revokedAt,
    })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.userId))
    .leftJoin(staffRoles, eq(staffRoles.id, staffUsers.customRoleId))
    .where(and(eq(staffSessions.id, sessionId), eq(staffSessions.userId, userId)));
  if (!row || row.revokedAt || row.disabled) return null;
  const time = now.getTime();
  if (time - row.createdAt.getTime() > ABSOLUTE_TIMEOUT_MS) return null;
  if (time - row.lastSeenAt.getTime() > IDLE_TIMEOUT_MS) return null;
  let lastSeenAt = row.lastSeenAt;
  if (time - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.id, sessionId));
    lastSeenAt = now;
  }
  const session: StaffSession = {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.customRoleId ?? row.role,
    customRoleName: row.customRoleId ? row.customRoleName : null,
    // Read with the session, so a role change (or a change to the role) counts from the next request.
    permissions: resolvePermissions(
      row.role,
      row.customPermissions ? { permissions: row.customPermissions, retiredAt: row.customRetiredAt } : null,
    ),
    sessionId,
    // The one-time password gates the password path only: a single sign-on session never used it.
    mustChangePassword: row.mustChangePassword && row.method === "password",
  };
  return { session, createdAt: row.createdAt, lastSeenAt };
}

/** The session's user when the session is live, else null; straight from the database. */
export async function validateSession(
  db: Database,
  ids: { sessionId: string; userId: string },
  now = new Date(),
): Promise<StaffSession | null> {
  return (await readLiveSession(db, ids, now))?.session ?? null;
}

export async function revokeSession(db: Database, sessionId: string, now = new Date()): Promise<boolean> {
  const revoked = await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(and(eq(staffSessions.id, sessionId), isNull(staffSessions.revokedAt)))
    .returning({ id: staffSessions.id });
  forgetLocally({ sessionId });
  return revoked.length > 0;
}

/** Ends every session of a user (disabled, or changed their password), except possibly the current one. */
export async function revokeUserSessions(db: Database, userId: string, now = new Date(), exceptSessionId?: string): Promise<void> {
  const live = and(eq(staffSessions.userId, userId), isNull(staffSessions.revokedAt));
  await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(exceptSessionId ? and(live, ne(staffSessions.id, exceptSessionId)) : live);
  forgetLocally({ userId });
}

import "server-only";

import { randomBytes } from "node:crypto";

import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { PERMISSIONS, resolvePermissions, secondFactorRequired, type Permission } from "@/lib/auth/permissions";
import { staffFactors, staffRoles, staffSessions, staffUsers } from "@/lib/auth/server/tables";
import type { SessionConnectionGrant, SessionStage, SignInMethod, StaffSession } from "@/lib/auth/types";
import { config } from "@/lib/config";
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

export interface StartSessionInput {
  userId: string;
  email: string;
  method: SignInMethod;
  ip: string | null;
  userAgent?: string | null;
  /** The sign-in already proved a second factor (a passkey, the identity provider's trusted `amr`). */
  secondFactor?: boolean;
}

/**
 * Opens a session and records the sign-in, together: no session exists without its audit event. A password
 * sign-in of a member who has a second factor opens the session awaiting it: it can do nothing else until the
 * code or passkey is given (lib/auth/server/step-up.ts).
 */
export async function startSession(db: Database, input: StartSessionInput, now = new Date()): Promise<string> {
  const { userId, email, method, ip, userAgent = null, secondFactor = false } = input;
  const sessionId = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    const pending = !secondFactor && (await hasConfirmedFactor(tx, userId)) ? ("second_factor" as const) : null;
    await tx.insert(staffSessions).values({
      id: sessionId,
      userId,
      method,
      createdAt: now,
      lastSeenAt: now,
      pending,
      secondFactorAt: secondFactor ? now : null,
      userAgent: userAgent?.slice(0, 512) ?? null,
      ip,
    });
    await tx.update(staffUsers).set({ lastSignInAt: now }).where(eq(staffUsers.id, userId));
    await recordEvent(
      {
        actor: { id: userId, email },
        action: "auth.sign_in",
        outcome: "success",
        ip,
        details: { method, ...(secondFactor ? { secondFactor: "yes" } : pending ? { secondFactor: "awaited" } : {}) },
        at: now,
      },
      tx,
    );
  });
  return sessionId;
}

export async function hasConfirmedFactor(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: staffFactors.id })
    .from(staffFactors)
    .where(and(eq(staffFactors.userId, userId), sql`${staffFactors.confirmedAt} is not null`))
    .limit(1);
  return row !== undefined;
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
  { active = true }: { active?: boolean } = {},
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
      pending: staffSessions.pending,
      secondFactorAt: staffSessions.secondFactorAt,
      hasSecondFactor: sql<boolean>`exists (select 1 from ${staffFactors} where ${staffFactors.userId} = ${staffUsers.id} and ${staffFactors.confirmedAt} is not null)`,
      hasPassword: sql<boolean>`${staffUsers.passwordHash} is not null`,
      createdAt: staffSessions.createdAt,
      lastSeenAt: staffSessions.lastSeenAt,
      revokedAt: staffSessions.revokedAt,
      // By name, not through the connections feature's table (a layer above): the member's grants, null when none.
      grants: sql<Array<{
        connectionId: string;
        withheld: string[];
      }> | null>`(select json_agg(json_build_object('connectionId', a.connection_id, 'withheld', a.withheld)) from staff_connection_access a where a.staff_id = ${staffUsers.id})`,
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
  // Only the member's own actions keep the session alive: background polling reads it without touching.
  if (active && time - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.id, sessionId));
    lastSeenAt = now;
  }
  const permissions = resolvePermissions(
    row.role,
    row.customPermissions ? { permissions: row.customPermissions, retiredAt: row.customRetiredAt } : null,
  );
  // The one-time password gates the password path only: a single sign-on session never used it.
  const mustChangePassword = row.mustChangePassword && row.method === "password";
  const hasSecondFactor = Boolean(row.hasSecondFactor);
  const session: StaffSession = {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.customRoleId ?? row.role,
    customRoleName: row.customRoleId ? row.customRoleName : null,
    // Read with the session, so a role change (or a change to the role) counts from the next request.
    permissions,
    sessionId,
    mustChangePassword,
    awaiting: sessionStage({
      pending: row.pending,
      mustChangePassword,
      // Read on every request: a member given a privileged role after signing in enrols before going on.
      mustEnrol: !hasSecondFactor && secondFactorRequired(config().signIn.mfaRequired, { permissions }),
    }),
    method: row.method,
    secondFactorAt: row.secondFactorAt?.getTime() ?? null,
    hasSecondFactor,
    hasPassword: Boolean(row.hasPassword),
    signedInAt: row.createdAt.getTime(),
    connectionGrants: grantsOfRow(row.grants),
  };
  return { session, createdAt: row.createdAt, lastSeenAt };
}

const KNOWN_PERMISSIONS = new Set<string>(PERMISSIONS);

/** The grants as read with the session (json_agg: a JSON array, or null for none); an unknown permission is dropped. */
function grantsOfRow(grants: Array<{ connectionId: string; withheld: string[] }> | string | null): SessionConnectionGrant[] | null {
  const parsed = typeof grants === "string" ? (JSON.parse(grants) as Array<{ connectionId: string; withheld: string[] }>) : grants;
  if (!parsed || parsed.length === 0) return null;
  return parsed.map((grant) => ({
    connectionId: grant.connectionId,
    withheld: grant.withheld.filter((name): name is Permission => KNOWN_PERMISSIONS.has(name)),
  }));
}

/** The stage a session is in, in the order a sign-in goes through them. */
export function sessionStage(state: { pending: string | null; mustChangePassword: boolean; mustEnrol: boolean }): SessionStage | null {
  if (state.pending === "second_factor") return "second_factor";
  if (state.mustChangePassword) return "password_change";
  if (state.mustEnrol) return "enrolment";
  return null;
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
export async function revokeUserSessions(db: Database, userId: string, now = new Date(), exceptSessionId?: string): Promise<number> {
  const live = and(eq(staffSessions.userId, userId), isNull(staffSessions.revokedAt));
  const ended = await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(exceptSessionId ? and(live, ne(staffSessions.id, exceptSessionId)) : live)
    .returning({ id: staffSessions.id });
  forgetLocally({ userId });
  return ended.length;
}

/** A session as its member (or an admin) sees it in a list. */
export interface SessionSummary {
  id: string;
  method: SignInMethod;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  /** The secret id, to mark the current one; never sent to the browser. */
  secret: string;
}

/** The member's live sessions (not revoked, not idle, not too old), the most recently active first. */
export async function listLiveSessions(db: Database, userId: string, now = new Date()): Promise<SessionSummary[]> {
  const rows = await db
    .select({
      id: staffSessions.publicId,
      secret: staffSessions.id,
      method: staffSessions.method,
      userAgent: staffSessions.userAgent,
      ip: staffSessions.ip,
      createdAt: staffSessions.createdAt,
      lastSeenAt: staffSessions.lastSeenAt,
    })
    .from(staffSessions)
    .where(
      and(
        eq(staffSessions.userId, userId),
        isNull(staffSessions.revokedAt),
        sql`${staffSessions.createdAt} > ${new Date(now.getTime() - ABSOLUTE_TIMEOUT_MS).toISOString()}::timestamptz`,
        sql`${staffSessions.lastSeenAt} > ${new Date(now.getTime() - IDLE_TIMEOUT_MS).toISOString()}::timestamptz`,
      ),
    )
    .orderBy(desc(staffSessions.lastSeenAt));
  return rows;
}

/**
 * Ends one of the member's sessions by its public id; false when there is no such live session of theirs.
 * Every instance forgets it through the change feed (trigger on revoked_at).
 */
export async function endSessionByPublicId(db: Database, userId: string, publicId: string, now = new Date()): Promise<boolean> {
  const ended = await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(and(eq(staffSessions.userId, userId), eq(staffSessions.publicId, publicId), isNull(staffSessions.revokedAt)))
    .returning({ id: staffSessions.id });
  for (const row of ended) forgetLocally({ sessionId: row.id });
  return ended.length > 0;
}

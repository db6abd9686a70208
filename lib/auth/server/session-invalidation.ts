import "server-only";

/*
 * This process's session caches (lib/auth/server/session-cache.ts), so a change made here is forgotten here at
 * once, without waiting for the database notification's round trip; other instances learn of it through
 * their change feed. Kept apart from the cache so lib/auth/server/sessions.ts can call it without an import cycle.
 */

export interface ForgettingCache {
  forgetSession(sessionId: string): void;
  forgetUser(userId: string): void;
  forgetRole(roleId: string): void;
}

const local = new Set<WeakRef<ForgettingCache>>();

export function registerLocalCache(cache: ForgettingCache): void {
  local.add(new WeakRef(cache));
}

/** Forgets a session, every session of a user, or of the members holding a custom role, in this process's caches. */
export function forgetLocally(change: { sessionId: string } | { userId: string } | { roleId: string }): void {
  for (const ref of local) {
    const cache = ref.deref();
    if (!cache) local.delete(ref);
    else if ("sessionId" in change) cache.forgetSession(change.sessionId);
    else if ("userId" in change) cache.forgetUser(change.userId);
    else cache.forgetRole(change.roleId);
  }
}

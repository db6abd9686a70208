import "server-only";

import { type StaffSession } from "@/lib/auth/types";
import type { ChangeFeed } from "@/lib/db/change-feed";
import type { DatabaseHandle } from "@/lib/db/client";
import { perDatabase } from "@/lib/db/per-database";

import { registerLocalCache } from "./session-invalidation";
import { ABSOLUTE_TIMEOUT_MS, readLiveSession, TOUCH_INTERVAL_MS } from "./sessions";

/*
 * Session checks without a database round trip per request, and no weaker revocation.
 *
 * Each instance keeps the live sessions it has seen in memory. Every change that can end or alter a
 * session (sign-out, a revoked or deleted session, a disabled, demoted or edited user, a custom role's
 * permissions changed or the role retired) is announced by database triggers on the `kyc_session_change`
 * channel when its transaction commits (migrations 0005_session_change_notify, 0006_custom_roles), and every
 * instance LISTENs to it: the entry is forgotten on every instance
 * within a notification's delay, whichever instance or script made the change.
 *
 * Entries are trusted only while the feed is connected; while it is down (or reconnecting) every request
 * reads the database as before, and the cache starts empty when the feed comes back. An entry also expires
 * once its session is due a last-seen touch (once a minute), so idle timeouts keep their meaning and the
 * touch still happens through the database path.
 *
 * A read that raced an invalidation must not store what it read: each invalidation bumps an epoch, and a
 * read stores its row only when no invalidation happened while it was reading.
 */

export const SESSION_CHANGE_CHANNEL = "kyc_session_change";
const MAX_ENTRIES = 10_000;

interface Entry {
  session: StaffSession;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private epoch = 0;
  private readonly feed: ChangeFeed;

  constructor(private readonly handle: DatabaseHandle) {
    this.feed = handle.changeFeed(SESSION_CHANGE_CHANNEL, {
      onMessage: (payload) => this.onChange(payload),
      onReset: () => this.forgetAll(),
    });
    registerLocalCache(this);
  }

  /** True while entries may be trusted (the change feed is listening). */
  get trusted(): boolean {
    return this.feed.connected;
  }

  /**
   * The live session or null. `active: false` (background polling, image-token refreshes) reads it without
   * counting as the member's activity, so an unattended screen still reaches the idle timeout.
   */
  async validate(ids: { sessionId: string; userId: string }, now = new Date(), { active = true } = {}): Promise<StaffSession | null> {
    const time = now.getTime();
    if (this.feed.connected) {
      const entry = this.entries.get(ids.sessionId);
      if (
        entry &&
        entry.userId === ids.userId &&
        time - entry.createdAt <= ABSOLUTE_TIMEOUT_MS &&
        time - entry.lastSeenAt <= TOUCH_INTERVAL_MS
      ) {
        return entry.session;
      }
    }
    const epoch = this.epoch;
    const live = await readLiveSession(this.handle.db, ids, now, { active });
    if (!live) {
      this.entries.delete(ids.sessionId);
      return null;
    }
    if (this.feed.connected && epoch === this.epoch) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(ids.sessionId, {
        session: live.session,
        userId: ids.userId,
        createdAt: live.createdAt.getTime(),
        lastSeenAt: live.lastSeenAt.getTime(),
      });
    }
    return live.session;
  }

  forgetSession(sessionId: string): void {
    this.epoch += 1;
    this.entries.delete(sessionId);
  }

  forgetUser(userId: string): void {
    this.epoch += 1;
    for (const [sessionId, entry] of this.entries) if (entry.userId === userId) this.entries.delete(sessionId);
  }

  /** Forgets the sessions of the members holding this custom role (their permissions changed). */
  forgetRole(roleId: string): void {
    this.epoch += 1;
    for (const [sessionId, entry] of this.entries) if (entry.session.role === roleId) this.entries.delete(sessionId);
  }

  forgetAll(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  private onChange(payload: string): void {
    if (payload.startsWith("s:")) this.forgetSession(payload.slice(2));
    else if (payload.startsWith("u:")) this.forgetUser(payload.slice(2));
    else if (payload.startsWith("r:")) this.forgetRole(payload.slice(2));
    else this.forgetAll();
  }
}

export const sessionCacheFor: (handle: DatabaseHandle) => SessionCache = perDatabase((handle) => new SessionCache(handle));

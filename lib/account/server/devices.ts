import "server-only";

import Bowser from "bowser";

import type { DeviceView } from "@/lib/account/types";
import { toSessionView } from "@/lib/auth/server/session-view";
import type { SessionSummary } from "@/lib/auth/server/sessions";

/*
 * Sessions listed once per device. Each sign-in opens a session of its own, so a member who signs in every morning
 * from one browser holds as many identical rows as sign-ins; the lists show one entry per device instead, with its
 * last activity and how many sessions it holds, and ending a device ends every one of them.
 *
 * A device is the browser's family (its name, not its version: an update does not make a new device), the
 * operating system's name and the address the sessions started from. The address is part of it on purpose: two
 * computers of one member with the same browser and system (the office's and home's) stay two entries, so ending
 * one never signs the other out. A user agent the parser does not know is its own family (the whole string), so
 * unknown clients are never merged with each other.
 */

/** The device a session belongs to, as a key (equal keys: one device). */
export function deviceKey(session: Pick<SessionSummary, "userAgent" | "ip">): string {
  if (!session.userAgent) return JSON.stringify([null, null, session.ip]);
  const parser = Bowser.getParser(session.userAgent);
  const browser = parser.getBrowserName() || session.userAgent;
  return JSON.stringify([browser, parser.getOSName() || null, session.ip]);
}

/**
 * Live sessions (newest activity first, as listLiveSessions gives them) as devices, in the same order: each the view
 * of its most recently active session (`id`: that session's public id, which the end routes take for the device),
 * started when its oldest session started, `current` when it holds the session asking.
 */
export function groupByDevice(sessions: readonly SessionSummary[], currentSessionId?: string): DeviceView[] {
  const groups = new Map<string, SessionSummary[]>();
  for (const session of sessions) {
    const key = deviceKey(session);
    groups.set(key, [...(groups.get(key) ?? []), session]);
  }
  return [...groups.values()].map((group) => {
    const newest = group.reduce((a, b) => (b.lastSeenAt > a.lastSeenAt ? b : a));
    const oldest = group.reduce((a, b) => (b.createdAt < a.createdAt ? b : a));
    const view = toSessionView(newest, currentSessionId);
    return {
      ...view,
      ...(currentSessionId !== undefined ? { current: group.some((session) => session.secret === currentSessionId) } : {}),
      createdAt: oldest.createdAt.toISOString(),
      count: group.length,
    };
  });
}

/** The live sessions of the device `publicId` names (one of its sessions' public ids); empty when it names none. */
export function sessionsOfDevice(sessions: readonly SessionSummary[], publicId: string): SessionSummary[] {
  const named = sessions.find((session) => session.id === publicId);
  if (!named) return [];
  const key = deviceKey(named);
  return sessions.filter((session) => deviceKey(session) === key);
}

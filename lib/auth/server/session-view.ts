import "server-only";

import Bowser from "bowser";

import type { SessionView } from "@/lib/auth/types";

import type { SessionSummary } from "./sessions";

export function describeUserAgent(userAgent: string | null): { browser: string | null; system: string | null } {
  if (!userAgent) return { browser: null, system: null };
  const parser = Bowser.getParser(userAgent);
  const browser = parser.getBrowser();
  const os = parser.getOS();
  const major = browser.version?.split(".")[0];
  return {
    browser: browser.name ? `${browser.name}${major ? ` ${major}` : ""}` : null,
    system: os.name ? `${os.name}${os.versionName ? ` ${os.versionName}` : ""}` : null,
  };
}

export function toSessionView(summary: SessionSummary, currentSessionId?: string): SessionView {
  return {
    id: summary.id,
    ...(currentSessionId !== undefined ? { current: summary.secret === currentSessionId } : {}),
    ...describeUserAgent(summary.userAgent),
    ip: summary.ip,
    method: summary.method,
    createdAt: summary.createdAt.toISOString(),
    lastSeenAt: summary.lastSeenAt.toISOString(),
  };
}

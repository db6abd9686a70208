import "server-only";

import type { NextResponse } from "next/server";

import { secureCookiesWanted } from "@/lib/auth/server/cookies";
import { config } from "@/lib/config";
import type { RevealableKeyDto } from "@/lib/integrations/types";
import { parseCookieHeader } from "@/lib/shared/cookie-header";

import {
  openRevealCookie,
  resealRevealCookie,
  revealCookieName,
  revealCookieOptions,
  sealRevealCookie,
  type RevealEntry,
} from "./reveal-cookie";

// The reveal cookie as the route handlers and the page use it: configuration and cookie jar applied.

function secure(): boolean {
  return secureCookiesWanted();
}

export function revealCookieValue(cookieHeader: string | null): string | undefined {
  return parseCookieHeader(cookieHeader)[revealCookieName(secure())];
}

/** The keys `userId` can still reveal from this request's cookie, newest first. */
export function revealableEntries(cookieHeader: string | null, userId: string, now = Date.now()): Promise<RevealEntry[]> {
  return openRevealCookie(revealCookieValue(cookieHeader), userId, { ring: config().secrets.mediaSeal, now });
}

export function toRevealableDto(entry: RevealEntry): RevealableKeyDto {
  return {
    upstreamId: entry.upstreamId,
    label: entry.label,
    domain: entry.domain,
    createdAt: new Date(entry.createdAt).toISOString(),
    revealUntil: new Date(entry.expiresAt).toISOString(),
  };
}

/** Seals a new key into the response's cookie, keeping the still-live earlier ones. */
export async function setRevealCookie(
  response: NextResponse,
  userId: string,
  existing: RevealEntry[],
  key: { upstreamId: number; label: string; domain: string; uuid: string },
  now = Date.now(),
): Promise<RevealEntry> {
  const sealed = await sealRevealCookie(userId, existing, key, {
    ring: config().secrets.mediaSeal,
    windowSeconds: config().integrationKeyRevealSeconds,
    now,
  });
  response.cookies.set(revealCookieName(secure()), sealed.value, revealCookieOptions(secure(), sealed.maxAgeSeconds));
  return sealed.entry;
}

/** Writes what is left of the entries into the cookie, or deletes the cookie when nothing is. */
export async function rewriteRevealCookie(response: NextResponse, userId: string, entries: RevealEntry[], now = Date.now()): Promise<void> {
  const sealed = await resealRevealCookie(userId, entries, { ring: config().secrets.mediaSeal, now });
  if (sealed) response.cookies.set(revealCookieName(secure()), sealed.value, revealCookieOptions(secure(), sealed.maxAgeSeconds));
  else response.cookies.set(revealCookieName(secure()), "", revealCookieOptions(secure(), 0));
}

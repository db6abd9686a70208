import "server-only";

import { createHmac } from "node:crypto";

import { z } from "zod";

import { sealWithRing, unsealWithRing } from "@/lib/keys/iron";
import type { KeyRing } from "@/lib/keys/ring";

/*
 * A newly created integration key value is shown once. So that a reload does not lose it, it stays
 * recoverable for a short window (INTEGRATION_KEY_REVEAL_SECONDS, default ten minutes) in this cookie:
 * iron-sealed (encrypted and signed), HttpOnly, SameSite=Strict, bound to the admin who created it. The
 * value is never written to the database, a log or the audit trail; once the window has passed the seal
 * is refused and the cookie is deleted, so the key can never be revealed again.
 *
 * The cookie holds the last few keys created (each with its own deadline), so creating a second key
 * within the window does not make the first one unrecoverable.
 *
 * Sealed under the MEDIA_SEAL_SECRET ring's current key, opened under any of its keys (lib/keys/iron.ts), so a
 * rotation inside the window loses no key.
 */

export const REVEAL_COOKIE = "kyc_integration_reveal";
/** The cookie is only sent to the integrations API and page. */
export const REVEAL_COOKIE_PATH = "/";
const MAX_ENTRIES = 5;

const entrySchema = z.object({
  upstreamId: z.number().int(),
  label: z.string(),
  domain: z.string(),
  uuid: z.string().min(1),
  createdAt: z.number().int().positive(),
  expiresAt: z.number().int().positive(),
});

const payloadSchema = z.object({ v: z.literal(1), userId: z.string().min(1), entries: z.array(entrySchema).max(MAX_ENTRIES) });

export type RevealEntry = z.infer<typeof entrySchema>;

/** What the page may know about a revealable key without the value. */
export type RevealableKey = Omit<RevealEntry, "uuid">;

/**
 * The sealing password: derived from the media seal secret for this one purpose, so a seal made for
 * one use can never be opened as another.
 */
export function revealSealPassword(secret: string): string {
  return createHmac("sha256", secret).update("integration-key-reveal-v1").digest("base64url");
}

export interface RevealCookieOptions {
  /** The MEDIA_SEAL_SECRET ring. */
  ring: KeyRing;
  windowSeconds: number;
  now?: number;
}

/** Adds a key to the (already opened) entries and seals them. Returns the cookie value and its lifetime. */
export async function sealRevealCookie(
  userId: string,
  existing: RevealEntry[],
  key: { upstreamId: number; label: string; domain: string; uuid: string },
  { ring, windowSeconds, now = Date.now() }: RevealCookieOptions,
): Promise<{ value: string; maxAgeSeconds: number; entry: RevealEntry }> {
  const entry: RevealEntry = { ...key, createdAt: now, expiresAt: now + windowSeconds * 1000 };
  const entries = [entry, ...existing.filter((item) => item.expiresAt > now && item.upstreamId !== key.upstreamId)].slice(0, MAX_ENTRIES);
  const value = await sealWithRing({ v: 1, userId, entries }, ring, { password: revealSealPassword, ttl: windowSeconds });
  return { value, maxAgeSeconds: windowSeconds, entry };
}

/**
 * Opens the cookie for `userId`: the entries still inside their window, newest first. A forged,
 * expired or foreign seal gives no entries. iron tolerates a minute of clock skew on its own ttl, so
 * each entry's own deadline is checked here against `now`.
 */
export async function openRevealCookie(
  value: string | undefined,
  userId: string,
  { ring, now = Date.now() }: Omit<RevealCookieOptions, "windowSeconds">,
): Promise<RevealEntry[]> {
  if (!value) return [];
  const raw = await unsealWithRing(value, ring, { password: revealSealPassword });
  const parsed = payloadSchema.safeParse(raw);
  if (!parsed.success || parsed.data.userId !== userId) return [];
  return parsed.data.entries.filter((entry) => entry.expiresAt > now);
}

/** Re-seals what is left (after a reveal window passed for some entries), or undefined when nothing is. */
export async function resealRevealCookie(
  userId: string,
  entries: RevealEntry[],
  { ring, now = Date.now() }: Omit<RevealCookieOptions, "windowSeconds">,
): Promise<{ value: string; maxAgeSeconds: number } | undefined> {
  const live = entries.filter((entry) => entry.expiresAt > now);
  if (live.length === 0) return undefined;
  const latest = Math.max(...live.map((entry) => entry.expiresAt));
  const ttl = Math.max(1, Math.ceil((latest - now) / 1000));
  const value = await sealWithRing({ v: 1, userId, entries: live }, ring, { password: revealSealPassword, ttl });
  return { value, maxAgeSeconds: ttl };
}

export function withoutValue(entry: RevealEntry): RevealableKey {
  return { upstreamId: entry.upstreamId, label: entry.label, domain: entry.domain, createdAt: entry.createdAt, expiresAt: entry.expiresAt };
}

/** `__Host-` prefixed (Secure, Path=/, no Domain) wherever the auth cookies are Secure. */
export function revealCookieName(secure: boolean): string {
  return secure ? `__Host-${REVEAL_COOKIE}` : REVEAL_COOKIE;
}

export function revealCookieOptions(secure: boolean, maxAgeSeconds: number) {
  return { httpOnly: true, secure, sameSite: "strict" as const, path: REVEAL_COOKIE_PATH, maxAge: maxAgeSeconds };
}

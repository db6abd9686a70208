/*
 * A core API key's life, as the provider documents it (legitimuz-core-documentation, api/autenticacao.mdx at
 * 40274c2): the format `lz_XXXXXXXX_<secret>`, whose `lz_` and eight characters are the key's public part, shown on
 * screens and in logs to tell keys apart; valid one year by default and two at most; a rotation issues a new key and
 * shortens the old one's validity to a grace period (24 hours by default, 7 days at most, 0 revokes it at once).
 * The service answers none of this on a read, so the dashboard keeps what the admin states, else the documented
 * default. Shared by the form and the server: no server imports.
 */

const DAY_MS = 86_400_000;

/** A key in the provider's format: `lz_`, eight letters or digits (the public part), `_`, the secret. */
export const PROVIDER_KEY = /^lz_[A-Za-z0-9]{8}_[\x21-\x7e]+$/;

/** The documented default validity, and the longest a key may have. */
export const DEFAULT_VALIDITY_DAYS = 365;
export const MAX_VALIDITY_DAYS = 730;

/** A rotation's grace period for the previous key: the documented default, and its most. */
export const DEFAULT_GRACE_HOURS = 24;
export const MAX_GRACE_HOURS = 168;

/** When warnings start: 30 days before the key expires, again at 7 (a notification and the connections page). */
export const EXPIRY_WARNINGS_DAYS = [30, 7] as const;

/** Whether the key claims the provider's format (it starts with `lz_`), so it must be in it. */
export function claimsProviderFormat(key: string): boolean {
  return key.startsWith("lz_");
}

/** What tells this key apart on screen: a provider key's public part, else its last four characters. */
export function keyHintOf(key: string): string {
  return PROVIDER_KEY.test(key) ? key.slice(0, 11) : key.slice(-4);
}

/**
 * The key's expiry: the one stated (an instant), else, for a key in the provider's format, the documented default
 * validity from `now` (not stated); else unknown. ASSUMPTION (docs/assumptions.md#key-life): a key added without its
 * expiry was created when it was added here; the service reads no key's validity.
 */
export function keyExpiry(key: string, stated: Date | undefined, now: Date): { expiresAt: Date | null; stated: boolean } {
  if (stated) return { expiresAt: stated, stated: true };
  if (PROVIDER_KEY.test(key)) return { expiresAt: new Date(now.getTime() + DEFAULT_VALIDITY_DAYS * DAY_MS), stated: false };
  return { expiresAt: null, stated: false };
}

/** Whole days from `now` until `expiresAt` (0 on its last day, negative once past). */
export function daysLeft(expiresAt: Date, now: Date): number {
  return Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS);
}

/** The warning a key is at: "expired", the smallest threshold it is within ("7", "30"), or null. */
export function expiryWarning(expiresAt: Date | null, now: Date): "expired" | "7" | "30" | null {
  if (!expiresAt) return null;
  const left = daysLeft(expiresAt, now);
  if (expiresAt.getTime() <= now.getTime()) return "expired";
  const threshold = [...EXPIRY_WARNINGS_DAYS].sort((a, b) => a - b).find((days) => left < days);
  return threshold === undefined ? null : (String(threshold) as "7" | "30");
}

/** The instant a key stated to expire on `day` (YYYY-MM-DD, as the provider's console shows it) stops working: its start, UTC. */
export function expiryOfDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** The latest expiry a key may be given (two years from now). */
export function latestExpiry(now: Date): Date {
  return new Date(now.getTime() + MAX_VALIDITY_DAYS * DAY_MS);
}

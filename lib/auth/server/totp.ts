import "server-only";

import { Secret, TOTP } from "otpauth";

/*
 * Authenticator-app codes (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps), through `otpauth` rather than a
 * hand-written HOTP. A code is accepted for the current step and one step either side (clock drift); the step
 * it matched is returned so the caller can refuse it a second time (lib/auth/server/factors.ts).
 */

export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = "KYC Back Office";

function totp(secret: string, account = ""): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: account,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A new random secret (160 bits, RFC 4226's recommendation), base32 as authenticator apps expect it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function totpUri(secret: string, account: string): string {
  return totp(secret, account).toString();
}

/** The step a 6-digit code matches (within one step of now), or null. */
export function matchTotp(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The code for a time (tests, and nothing else, compute codes). */
export function totpCode(secret: string, now = Date.now()): string {
  return totp(secret).generate({ timestamp: now });
}

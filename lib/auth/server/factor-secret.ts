import "server-only";

import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

import { config } from "@/lib/config";

/*
 * Authenticator-app secrets are kept encrypted (AES-256-GCM, a key derived from NEXTAUTH_SECRET for this use
 * alone): a copy of the database does not give anyone the codes. Recovery codes are kept as keyed hashes only.
 * Stored form: `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */

const VERSION = "v1";

function key(purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", config().secrets.nextAuth.current.secret, "kyc-staff-factors", purpose, 32));
}

export function sealFactorSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key("totp-secret-v1"), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function openFactorSecret(sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("Unreadable factor secret");
  const decipher = createDecipheriv("aes-256-gcm", key("totp-secret-v1"), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** A recovery code's stored form: a keyed hash (the codes are random, so no slow hash is needed). */
export function recoveryCodeHash(userId: string, code: string): string {
  return createHmac("sha256", key("recovery-code-v1"))
    .update(`${userId}:${normaliseRecoveryCode(code)}`)
    .digest("base64url");
}

/** Lower case, without spaces or dashes: what the member types may be grouped differently. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

import "server-only";

import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

import { config } from "@/lib/config";
import { GCM_TAG_BYTES, keyById, type Key, type KeyRing } from "@/lib/keys/ring";

/*
 * Authenticator-app secrets are kept encrypted (AES-256-GCM, a key derived from a NEXTAUTH_SECRET ring key for
 * this use alone): a copy of the database does not give anyone the codes. Recovery codes are kept as keyed
 * hashes only. Both follow the ring, so a rotation of NEXTAUTH_SECRET locks nobody out of their second factor:
 * - a secret is sealed under the current key, its id stored with it: `v2.<key id>.<iv>.<tag>.<ciphertext>`
 *   (base64url), opened by that id. Secrets sealed before rings (`v1.<iv>.<tag>.<ciphertext>`, no id) are
 *   opened by trying each key of the ring: GCM's tag tells which one fits. A secret opened under an older key
 *   is sealed again under the current one when next used (factors.ts), so the old key's share shrinks;
 *   `npm run keys:rotate -- --status` counts what each key still seals;
 * - a recovery code is stored hashed under the key current at its making, the key id before the hash
 *   (`<key id>:<hash>`; codes made before rings: the bare hash), and matched against its hash under every key
 *   of the ring. A code cannot be hashed again (only its hash is kept), so a key that still hashes unused codes
 *   should stay in the ring; the status command counts them.
 * The derivation (HKDF salt "kyc-staff-factors") is the one used before rings, so what was made then opens now.
 */

const LEGACY = "v1";
const VERSION = "v2";
const TOTP_PURPOSE = "totp-secret-v1";

function derive(key: Key, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", key.secret, "kyc-staff-factors", purpose, 32));
}

const ring = (): KeyRing => config().secrets.nextAuth;

export function sealFactorSecret(plain: string, keys: KeyRing = ring()): string {
  const key = keys.current;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derive(key, TOTP_PURPOSE), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, key.id, ...[iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url"))].join(".");
}

function decrypt(key: Key, iv: string, tag: string, body: string): string {
  const tagBytes = Buffer.from(tag, "base64url");
  // Only the full tag (lib/keys/ring.ts, GCM_TAG_BYTES): Node would otherwise accept one cut to 4 bytes.
  if (tagBytes.length !== GCM_TAG_BYTES) throw new Error("sealed factor secret: wrong tag length");
  const decipher = createDecipheriv("aes-256-gcm", derive(key, TOTP_PURPOSE), Buffer.from(iv, "base64url"), {
    authTagLength: GCM_TAG_BYTES,
  });
  decipher.setAuthTag(tagBytes);
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

export interface OpenedFactorSecret {
  secret: string;
  /** The ring key that opened it. */
  keyId: string;
  /** Sealed under another key than the current one (or before rings): worth sealing again. */
  stale: boolean;
}

/** Opens a stored secret under the ring; throws when no key of the ring opens it (its key was retired). */
export function openFactorSecretWithKey(sealed: string, keys: KeyRing = ring()): OpenedFactorSecret {
  const parts = sealed.split(".");
  if (parts[0] === VERSION && parts.length === 5) {
    const [, id = "", iv = "", tag = "", body = ""] = parts;
    const key = keyById(keys, id);
    if (!key) throw new Error("Factor secret sealed under a key no longer in the ring");
    return { secret: decrypt(key, iv, tag, body), keyId: key.id, stale: key.id !== keys.current.id };
  }
  if (parts[0] === LEGACY && parts.length === 4) {
    const [, iv = "", tag = "", body = ""] = parts;
    for (const key of keys.keys) {
      try {
        return { secret: decrypt(key, iv, tag, body), keyId: key.id, stale: true };
      } catch {
        // Not this key (GCM's tag check failed): the next one.
      }
    }
    throw new Error("Factor secret sealed under a key no longer in the ring");
  }
  throw new Error("Unreadable factor secret");
}

export function openFactorSecret(sealed: string, keys: KeyRing = ring()): string {
  return openFactorSecretWithKey(sealed, keys).secret;
}

/** The id of the key a stored secret names (undefined for one sealed before rings). */
export function factorSecretKeyId(sealed: string): string | undefined {
  const parts = sealed.split(".");
  return parts[0] === VERSION && parts.length === 5 ? parts[1] : undefined;
}

function recoveryHash(key: Key, userId: string, code: string): string {
  return createHmac("sha256", derive(key, "recovery-code-v1"))
    .update(`${userId}:${normaliseRecoveryCode(code)}`)
    .digest("base64url");
}

/** A recovery code's stored form: a keyed hash under the current key (the codes are random, so no slow hash is needed). */
export function recoveryCodeHash(userId: string, code: string, keys: KeyRing = ring()): string {
  return `${keys.current.id}:${recoveryHash(keys.current, userId, code)}`;
}

/** Every form a recovery code may be stored under: per key of the ring, with its id and bare (made before rings). */
export function recoveryCodeHashes(userId: string, code: string, keys: KeyRing = ring()): string[] {
  return keys.keys.flatMap((key) => {
    const hash = recoveryHash(key, userId, code);
    return [`${key.id}:${hash}`, hash];
  });
}

/** Lower case, without spaces or dashes: what the member types may be grouped differently. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

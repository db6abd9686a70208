import "server-only";

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/*
 * Key rings: every secret of the dashboard is a ring of keys with ids, so it can rotate without signing anyone
 * out, refusing a delivery or breaking the audit chain. The first key signs (or encrypts, or hashes new
 * values); every key still verifies (or decrypts) what was made under it. Rotation: put a new key first, wait
 * until nothing made under the old one is still in use (docs/operations.md, "Rotating a key"), then drop it.
 *
 * The variable's format: `id:secret` entries separated by commas, newest first, e.g.
 *   AUDIT_HASH_SECRET="2026-11:Vq3…,1:x9Lm…"
 * A value with no `id:` prefix is one key with the id "1", so a single secret set before rings existed keeps
 * working, and keeps its id when a second key is put in front of it.
 */

export interface Key {
  /** Stored beside whatever the key made (an audit event, a sealed note), so the right key opens it. */
  id: string;
  secret: string;
}

export interface KeyRing {
  /** The newest key: everything new is made under it. */
  current: Key;
  /** Every key, newest first (`current` among them). */
  keys: readonly Key[];
}

/** The id a plain (single, id-less) secret gets. */
export const LEGACY_KEY_ID = "1";

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const ENTRY = /^([A-Za-z0-9_-]{1,32}):(.+)$/s;

export class KeyRingError extends Error {}

/**
 * Parses a ring from its variable. Throws KeyRingError naming what is wrong (an empty entry, a repeated id, a
 * key shorter than `minLength`); config.ts turns it into a start-up error naming the variable.
 */
export function parseKeyRing(value: string, minLength = 1): KeyRing {
  const trimmed = value.trim();
  const entries = trimmed.split(",").map((entry) => entry.trim());
  const single = entries.length === 1 ? entries[0]! : undefined;
  const keys: Key[] =
    single !== undefined && !ENTRY.test(single)
      ? [{ id: LEGACY_KEY_ID, secret: single }]
      : entries.map((entry, index) => {
          const match = ENTRY.exec(entry);
          if (!match) throw new KeyRingError(`entry ${index + 1} must be id:secret (ids: letters, digits, _ -)`);
          return { id: match[1]!, secret: match[2]! };
        });
  const seen = new Set<string>();
  for (const key of keys) {
    if (!KEY_ID.test(key.id)) throw new KeyRingError(`key id "${key.id}" must be letters, digits, _ - (at most 32)`);
    if (seen.has(key.id)) throw new KeyRingError(`key id "${key.id}" appears twice`);
    seen.add(key.id);
    if (key.secret.length < minLength) {
      const which = keys.length === 1 && key.id === LEGACY_KEY_ID ? "" : `key "${key.id}" `;
      throw new KeyRingError(`${which}must be at least ${minLength} characters`);
    }
  }
  if (!keys[0] || !keys[0].secret) throw new KeyRingError("is empty");
  return { current: keys[0], keys };
}

/** The ring written back as its variable's value (newest first). */
export function formatKeyRing(ring: KeyRing): string {
  return ring.keys.map((key) => `${key.id}:${key.secret}`).join(",");
}

/** A ring of one key: tests and callers that hold a single secret. */
export function singleKeyRing(secret: string, id = LEGACY_KEY_ID): KeyRing {
  const key = { id, secret };
  return { current: key, keys: [key] };
}

/** The ring with `key` put first (the rotation's first step). */
export function withNewKey(ring: KeyRing, key: Key): KeyRing {
  if (ring.keys.some((existing) => existing.id === key.id)) throw new KeyRingError(`key id "${key.id}" is already in the ring`);
  return { current: key, keys: [key, ...ring.keys] };
}

export function keyById(ring: KeyRing, id: string): Key | undefined {
  return ring.keys.find((key) => key.id === id);
}

/** A fresh key id, sortable by date (`2026-11-28T1943`), for `npm run keys:rotate`. */
export function newKeyId(now = new Date()): string {
  return now.toISOString().slice(0, 16).replace(/:/g, "");
}

export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Derived keys per ring key and purpose. HKDF is a quarter of a millisecond of CPU, and every request opens its
 * connection's key (lib/connections/server/store.ts): kept with the key object it came from (a WeakMap, so a key
 * that leaves the ring takes its derived keys with it), never written anywhere.
 */
const derived = new WeakMap<Key, Map<string, Buffer>>();

/** A 32-byte key derived for one use from a ring key (HKDF-SHA256), so one secret never serves two purposes raw. */
export function deriveKey(key: Key, purpose: string): Buffer {
  let byPurpose = derived.get(key);
  if (!byPurpose) derived.set(key, (byPurpose = new Map()));
  let bytes = byPurpose.get(purpose);
  if (!bytes) byPurpose.set(purpose, (bytes = Buffer.from(hkdfSync("sha256", key.secret, `kyc-key-ring:${key.id}`, purpose, 32))));
  return bytes;
}

/*
 * Sealed text: AES-256-GCM under a key derived from the ring's current key for `purpose`, the key id stored
 * in the envelope: `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url). Opening picks the key by id; a text
 * sealed under a key no longer in the ring, or altered, does not open (null), it is never guessed at.
 */
const SEALED_PREFIX = "v1.";
/**
 * GCM's full 128-bit tag, the only length opened: without `authTagLength` Node accepts a tag cut to 4 bytes, and a
 * forger then has to guess 32 bits instead of 128.
 */
export const GCM_TAG_BYTES = 16;

export function isSealedText(value: string): boolean {
  return value.startsWith(SEALED_PREFIX) && value.split(".").length === 5;
}

export function sealText(ring: KeyRing, purpose: string, plaintext: string): string {
  const key = ring.current;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(key, purpose), iv);
  cipher.setAAD(Buffer.from(`${purpose}:${key.id}`));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [SEALED_PREFIX + key.id, iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(
    ".",
  );
}

/** The key id a sealed text was made under (undefined when `value` is not sealed). */
export function sealedTextKeyId(value: string): string | undefined {
  return isSealedText(value) ? value.split(".")[1]! : undefined;
}

export function openText(ring: KeyRing, purpose: string, sealed: string): string | null {
  if (!isSealedText(sealed)) return null;
  const [, id = "", iv = "", body = "", tag = ""] = sealed.split(".");
  const key = keyById(ring, id);
  if (!key) return null;
  const tagBytes = Buffer.from(tag, "base64url");
  if (tagBytes.length !== GCM_TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", deriveKey(key, purpose), Buffer.from(iv, "base64url"), {
      authTagLength: GCM_TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(`${purpose}:${key.id}`));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

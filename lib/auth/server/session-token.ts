import "server-only";

import { hkdfSync } from "node:crypto";

import { jwtDecrypt } from "jose";
import { encode, type JWT, type JWTDecodeParams, type JWTEncodeParams } from "next-auth/jwt";

import type { KeyRing } from "@/lib/keys/ring";

/*
 * next-auth's session cookie (and every other JWT next-auth issues) under the NEXTAUTH_SECRET key ring:
 * encoded with the ring's current key, decoded with whichever key of the ring opens it, so putting a new
 * key first signs nobody out; a cookie made under a key since removed from the ring opens with none, and
 * its member is signed out.
 *
 * The token format is next-auth's own (a JWE with `dir` and A256GCM, key = HKDF-SHA256(secret, salt,
 * info "NextAuth.js Generated Encryption Key[ (salt)]", 32 bytes), 15 s clock tolerance): encoding is
 * next-auth's `encode`; decoding derives each key once and keeps it, instead of on every request as
 * next-auth's `decode` does. A JWE carries no key id next-auth would read, so each key is tried in turn,
 * newest first: a wrong key fails GCM's tag check at once, and there are a handful of keys at most.
 */

const ENCRYPTION_INFO = "NextAuth.js Generated Encryption Key";
const derived = new Map<string, Uint8Array>();

function encryptionKey(secret: string, salt: string): Uint8Array {
  const cacheKey = `${salt}\u0000${secret}`;
  let key = derived.get(cacheKey);
  if (!key) {
    key = new Uint8Array(hkdfSync("sha256", secret, salt, salt ? `${ENCRYPTION_INFO} (${salt})` : ENCRYPTION_INFO, 32));
    // A handful of secrets at most per process (a ring, tests switching them); never grows with traffic.
    if (derived.size >= 16) derived.clear();
    derived.set(cacheKey, key);
  }
  return key;
}

/** next-auth's `encode`, under the ring's current key (the secret next-auth passes is ignored). */
export function encodeSessionToken(ring: KeyRing, params: Omit<JWTEncodeParams, "secret">): Promise<string> {
  return encode({ ...params, secret: ring.current.secret });
}

/**
 * next-auth's `decode`, under any key of the ring. Throws on a token no key opens, a tampered or an expired
 * one, like next-auth's (getToken and next-auth turn the throw into "no session").
 */
export async function decodeSessionToken(ring: KeyRing, { token, salt = "" }: Omit<JWTDecodeParams, "secret">): Promise<JWT | null> {
  if (!token) return null;
  let failure: unknown;
  for (const key of ring.keys) {
    try {
      const { payload } = await jwtDecrypt(token, encryptionKey(key.secret, salt), { clockTolerance: 15 });
      return payload as JWT;
    } catch (error) {
      // Expired or malformed under the key that opened it: no other key would do better.
      if (!isWrongKey(error)) throw error;
      failure ??= error;
    }
  }
  throw failure;
}

/** jose reports a key that does not open the token as a failed decryption (GCM's tag). */
function isWrongKey(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "ERR_JWE_DECRYPTION_FAILED";
}

/** The `jwt` part of next-auth's options for this ring. */
export function sessionJwtCodec(ring: KeyRing) {
  return {
    encode: (params: JWTEncodeParams) => encodeSessionToken(ring, params),
    decode: (params: JWTDecodeParams) => decodeSessionToken(ring, params),
  };
}

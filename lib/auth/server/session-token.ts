import "server-only";

import { hkdfSync } from "node:crypto";

import { jwtDecrypt } from "jose";
import type { JWT } from "next-auth/jwt";

/*
 * Decoding next-auth's session cookie without deriving its key on every request. next-auth derives the
 * content-encryption key from NEXTAUTH_SECRET with HKDF on each `decode` call; that key only changes with
 * the secret, so it is derived once here and kept. The token format is next-auth's own (a JWE with `dir`
 * and A256GCM, key = HKDF-SHA256(secret, salt "", info "NextAuth.js Generated Encryption Key", 32 bytes),
 * 15 s clock tolerance), so cookies issued by next-auth decode here and nowhere else changes.
 */

const ENCRYPTION_INFO = "NextAuth.js Generated Encryption Key";
const keys = new Map<string, Uint8Array>();

function encryptionKey(secret: string): Uint8Array {
  let key = keys.get(secret);
  if (!key) {
    key = new Uint8Array(hkdfSync("sha256", secret, "", ENCRYPTION_INFO, 32));
    // A handful of secrets at most per process (tests switch them); never grows with traffic.
    if (keys.size >= 8) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/** next-auth's `decode`, with the derived key cached. Throws on a tampered or expired token, like next-auth's. */
export async function decodeSessionToken({ token, secret }: { token?: string; secret: string | Buffer }): Promise<JWT | null> {
  if (!token) return null;
  const { payload } = await jwtDecrypt(token, encryptionKey(secret.toString()), { clockTolerance: 15 });
  return payload as JWT;
}

import "server-only";

import { randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

import { MAX_PASSWORD_LENGTH } from "@/lib/auth/credentials";

/*
 * Staff passwords: scrypt with a random salt. The parameters travel inside the stored string
 * (`scrypt$N$r$p$salt$hash`), so they can be raised later without invalidating existing hashes.
 */

const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
// scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly that, so leave headroom.
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMS, KEY_LENGTH);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64"), key.toString("base64")].join("$");
}

/** Constant-time comparison; false for a malformed stored hash rather than an exception. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (!N || !r || !p) return false;
  const salt = Buffer.from(parts[4] ?? "", "base64");
  const expected = Buffer.from(parts[5] ?? "", "base64");
  if (salt.length === 0 || expected.length === 0) return false;
  // An over-long password is wrong, but it is still hashed (truncated) so the refusal takes as long
  // as any other wrong password.
  const candidate = await derive(password.slice(0, MAX_PASSWORD_LENGTH + 1), salt, { N, r, p }, expected.length);
  return password.length <= MAX_PASSWORD_LENGTH && timingSafeEqual(candidate, expected);
}

let dummyHash: Promise<string> | undefined;

/**
 * A hash of a random password, made once per process. Checking a password against it when the email
 * is unknown spends the same time as a real check, so timing does not reveal which emails exist.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString("base64url"));
  return dummyHash;
}

// No look-alike characters (0/O, 1/l/I), so a one-time password can be read out or typed from a screen.
const ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A one-time password for an invited account (4 groups of 5 characters, about 116 bits). */
export function generateOneTimePassword(): string {
  const groups: string[] = [];
  for (let group = 0; group < 4; group += 1) {
    let chars = "";
    for (let index = 0; index < 5; index += 1) chars += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(chars);
  }
  return groups.join("-");
}

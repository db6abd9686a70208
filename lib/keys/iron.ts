import "server-only";

import { sealData, unsealData } from "iron-session";

import type { KeyRing } from "./ring";

/*
 * iron-session seals (the media tokens, the integration-key reveal cookie) under a key ring: sealed with the
 * ring's current key, opened with whichever key of the ring opens them.
 *
 * iron-session takes a password map of its own, but it chooses the sealing password as the highest numeric
 * id and accepts ids of word characters only; the ring's ids are strings chosen by whoever rotates
 * (`2026-11-28T1943`, `1`), newest first by position, not by value. Mapping them onto numbers would tie every
 * seal to an order that changes at each rotation. So each key is tried in turn instead: seals live minutes,
 * a ring holds a handful of keys, and a wrong key is refused by the HMAC check before anything is decrypted.
 * Seals keep iron's own password id ("1"), so those made before rings open unchanged.
 */

/** A seal's password for one ring key: the secret itself, or one derived from it for a single use. */
export type IronPassword = (secret: string) => string;

const plain: IronPassword = (secret) => secret;

export function sealWithRing(
  data: object,
  ring: KeyRing,
  { ttl, password = plain }: { ttl: number; password?: IronPassword },
): Promise<string> {
  return sealData(data, { password: password(ring.current.secret), ttl });
}

/**
 * What the seal holds under the first key of the ring that opens it, or undefined when none does (forged,
 * expired, or sealed under a key since removed from the ring). Never throws.
 */
export async function unsealWithRing(
  seal: string,
  ring: KeyRing,
  { password = plain }: { password?: IronPassword } = {},
): Promise<unknown> {
  for (const key of ring.keys) {
    let raw: unknown;
    try {
      // iron-session answers `{}` for a bad HMAC (another key) or an expired seal, and throws on a malformed one.
      raw = await unsealData<unknown>(seal, { password: password(key.secret) });
    } catch {
      return undefined;
    }
    if (raw && typeof raw === "object" && Object.keys(raw).length > 0) return raw;
  }
  return undefined;
}

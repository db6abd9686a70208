import "server-only";

import { z } from "zod";

import { sealWithRing, unsealWithRing } from "@/lib/keys/iron";
import type { KeyRing } from "@/lib/keys/ring";

/*
 * Sealed media tokens: what the browser holds instead of a signed file URL. A token names a verification
 * and one file key, is bound to the signed-in user and expires no later than the signed URL it stands
 * for. It carries that signed URL sealed (`fileUrl`: encrypted and authenticated by iron, AES-256-CBC with
 * HMAC-SHA-256, so the browser holds ciphertext it can neither read nor change), so the image route opens the
 * picture without asking the service again; a token without one (sealed before it carried them) has the route
 * ask for a fresh URL. A leaked token works for no one else and, unsealed by no one without MEDIA_SEAL_SECRET,
 * reveals nothing (docs/security.md, "Media tokens"). Sealed under the MEDIA_SEAL_SECRET ring's current key,
 * opened under any of its keys (lib/keys/iron.ts): a rotation breaks no image on screen.
 */

const claimSchema = z.object({
  v: z.literal(1),
  userId: z.string().min(1),
  publicId: z.string().min(1),
  fileKey: z.string().min(1),
  mediaType: z.string().min(1),
  expiresAt: z.number().int().positive(),
  // The connection the page worked under (lib/connections): the image is asked for with its key. Absent in a token
  // sealed before connections existed: the default connection's.
  connection: z.string().optional(),
  // The service's signed URL of the file, valid at least as long as the token (never logged, stored or answered).
  fileUrl: z.url().optional(),
});

export type MediaClaim = Omit<z.infer<typeof claimSchema>, "v">;

export type MediaTokenProblem = "invalid" | "expired" | "foreign";

export class MediaTokenError extends Error {
  constructor(readonly problem: MediaTokenProblem) {
    super(`media token ${problem}`);
    this.name = "MediaTokenError";
  }
}

/**
 * The longest token the image route opens: a sealed token is a few hundred characters, or a few more with its URL;
 * anything much longer is not one. A token that would be longer with its URL is sealed without it
 * (lib/verifications/server/media.ts), so a long signed URL costs a files call rather than a refused picture.
 */
export const MAX_MEDIA_TOKEN_LENGTH = 4096;

/** Never longer than this, whatever the signed URL says. */
export const MAX_MEDIA_TOKEN_SECONDS = 300;

export async function sealMediaToken(claim: MediaClaim, ring: KeyRing, now = Date.now()): Promise<string> {
  const expiresAt = Math.min(claim.expiresAt, now + MAX_MEDIA_TOKEN_SECONDS * 1000);
  const ttlSeconds = Math.floor((expiresAt - now) / 1000);
  if (ttlSeconds < 1) throw new MediaTokenError("expired");
  return sealWithRing({ ...claim, expiresAt, v: 1 }, ring, { ttl: ttlSeconds });
}

/**
 * Opens a token for `userId` under any key of the ring. A forged or expired seal opens as nothing,
 * and iron tolerates a minute of clock skew, so every field and our own expiry are checked here.
 */
export async function openMediaToken(token: string, userId: string, ring: KeyRing, now = Date.now()): Promise<MediaClaim> {
  const raw = await unsealWithRing(token, ring);
  const parsed = claimSchema.safeParse(raw);
  if (!parsed.success) throw new MediaTokenError("invalid");
  const { v: _version, ...claim } = parsed.data;
  if (claim.expiresAt <= now) throw new MediaTokenError("expired");
  if (claim.userId !== userId) throw new MediaTokenError("foreign");
  return claim;
}

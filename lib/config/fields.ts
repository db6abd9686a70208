import "server-only";

import { z } from "zod";

import { KeyRingError, parseKeyRing } from "@/lib/keys/ring";

/* The variable types the configuration's schemas are built from. */

export const MIN_SECRET_LENGTH = 32;

export const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//.test(value), "must be an http(s) URL")
  .transform((value) => value.replace(/\/+$/, ""));
/** A key ring (lib/keys/ring.ts): `id:secret` entries, newest first, or one plain secret; each key guess-proof. */
export const keyRing = (minLength: number) =>
  z.string().transform((value, context) => {
    try {
      return parseKeyRing(value, minLength);
    } catch (error) {
      if (!(error instanceof KeyRingError)) throw error;
      context.addIssue({ code: "custom", message: error.message });
      return z.NEVER;
    }
  });
export const secret = keyRing(MIN_SECRET_LENGTH);
export const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, "must be an HTTP header name");
export const positiveInt = z.coerce.number().int().positive();
// The provider chooses its signing secrets; only a guess-proof minimum is asked of them.
export const webhookSecret = keyRing(16);

// A Slack-compatible incoming webhook (POST {text}) for chat notifications. Unset: no chat message. The
// address is a secret (whoever holds it posts to the channel): https only with the real service; the
// embedded mode also takes http, for a local receiver.
export const chatWebhookUrl = (schemes: RegExp, message: string) => z.string().url("must be a URL").regex(schemes, message).optional();

import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * The webhook signature scheme of the provider's example receivers (Legitimuz-Tech/legitimuz-examples,
 * pocs/express-backend, fastapi-backend, go-backend, laravel-backend, next-checkout, queue-worker,
 * multi-integration; all agree): a header `t=<unix seconds>,v1=<hex HMAC-SHA256>` where the HMAC, keyed
 * with the destination's signing secret, covers `<t>.<raw body>`: the body's bytes as sent, so the check
 * runs before anything parses them. A timestamp further than the tolerance from now (either way) is
 * refused, so a captured delivery cannot be replayed later. The core documentation
 * (legitimuz-core-documentation api/webhooks.mdx) says deliveries are signed but leaves the scheme
 * unpublished: ASSUMPTION (docs/assumptions.md#webhook-signature), header names configurable (lib/config/).
 */

export type SignatureProblem = "missing" | "malformed" | "stale" | "mismatch";
export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; problem: SignatureProblem };

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

function expected(secret: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody, "utf8").digest("hex");
}

/** The header value a sender puts on a delivery (tests and the documentation example use it). */
export function signWebhook(secret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${expected(secret, timestamp, rawBody)}`;
}

export function verifyWebhookSignature(input: {
  header: string | null;
  rawBody: string;
  /** Every key of the WEBHOOK_SIGNING_SECRET ring: a delivery signed under any one of them is accepted. */
  secrets: readonly string[];
  toleranceSeconds: number;
  now?: Date;
}): SignatureCheck {
  if (!input.header?.trim()) return { ok: false, problem: "missing" };
  const parts = new Map<string, string[]>();
  for (const piece of input.header.split(",")) {
    const at = piece.indexOf("=");
    if (at <= 0) continue;
    const key = piece.slice(0, at).trim();
    parts.set(key, [...(parts.get(key) ?? []), piece.slice(at + 1).trim()]);
  }
  const t = parts.get("t");
  // Several v1 values may come while the sender rotates its secret: any one matching is enough.
  const candidates = (parts.get("v1") ?? []).filter((value) => HEX_SHA256.test(value));
  if (t?.length !== 1 || !/^\d{1,12}$/.test(t[0]!) || candidates.length === 0) return { ok: false, problem: "malformed" };
  const timestamp = Number(t[0]);
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > input.toleranceSeconds) return { ok: false, problem: "stale" };

  // Two secrets at once while the provider switches (the dashboard's ring holds both): any key matching any v1
  // value is enough. Equal lengths are guaranteed by the hex check above; timingSafeEqual throws otherwise.
  const matches = input.secrets.some((secret) => {
    const want = Buffer.from(expected(secret, timestamp, input.rawBody), "hex");
    return candidates.some((candidate) => timingSafeEqual(want, Buffer.from(candidate, "hex")));
  });
  return matches ? { ok: true, timestamp } : { ok: false, problem: "mismatch" };
}

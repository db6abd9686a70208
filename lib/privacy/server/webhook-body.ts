import "server-only";

/*
 * A processed delivery's body cut down to the fields processing reads (lib/webhooks/server/parse.ts), in the
 * same shape, so reading it again gives the same event (same key, status, ref_id, time, scores, decision time and
 * tenant: what the event history and the titular report show) while whatever else the provider adds (a name, a
 * document) is gone. Not JSON, or not an object: nothing is kept.
 */

const KEEP: Record<string, true | Record<string, true>> = {
  id: true,
  event: true,
  verification_id: true,
  status: true,
  ref_id: true,
  occurred_at: true,
  identity_score: true,
  fraud_score: true,
  tenant_public_id: true,
  resource: { type: true, public_id: true },
  verification: { status: true, ref_id: true, decided_at: true },
};

function pick(value: unknown, keep: Record<string, true | Record<string, true>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(keep)) {
    if (!Object.hasOwn(value as object, key)) continue;
    const field = (value as Record<string, unknown>)[key];
    if (rule === true) {
      // Scalars only: an object where a scalar belongs is not something processing reads.
      if (field === null || ["string", "number", "boolean"].includes(typeof field)) out[key] = field;
    } else if (field === null) {
      out[key] = null;
    } else if (typeof field === "object" && !Array.isArray(field)) {
      out[key] = pick(field, rule);
    }
  }
  return out;
}

export function shortenDeliveryBody(raw: string): string {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return "{}";
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) return "{}";
  return JSON.stringify(pick(body, KEEP));
}

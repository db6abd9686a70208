import { createHash } from "node:crypto";

import { z } from "zod";

import { VERIFICATION_EVENTS } from "@/lib/upstream/model/verification";
import { isPublicId } from "@/lib/upstream/model/verification-query";

/*
 * Reads a signed delivery's body. The provider's material shows two shapes, and both are read:
 *
 * - flat (legitimuz-core-documentation api/webhooks.mdx, the primary source):
 *   `{ event, verification_id, ref_id, status, identity_score, fraud_score, occurred_at }`;
 * - envelope (legitimuz-examples pocs/webhook-receiver/lib/tipos.ts and the workers that read it):
 *   `{ id, event, occurred_at, tenant_public_id, resource: { type, public_id },
 *      verification?: { status, ref_id, decided_at } }`.
 *
 * Event names: the documentation's catalogue (verification.created, .updated, .approved, .reproved,
 * .review, .expired) plus the examples' `verification.decided`, which the documentation does not list.
 * Any other event (flow.published, names not published yet) is acknowledged and ignored, as the examples
 * recommend. Unknown fields are kept out of the way rather than refused (the examples warn new ones appear).
 *
 * One upstream event may arrive in several deliveries ("deduplicate by event, not by arrival"): its key is
 * the envelope's `id`, or for the flat shape, which carries no event id, a hash of the fields that
 * identify it (event, verification, status, occurred_at). ASSUMPTION (docs/assumptions.md#webhook-deduplication):
 * a redelivery repeats them unchanged.
 */

/**
 * The documentation's events (lib/upstream/model/verification.ts) plus the examples' `verification.decided`
 * (legitimuz-examples pocs/webhook-receiver), which the receiver reads too.
 */
export const RECEIVED_VERIFICATION_EVENTS = [...VERIFICATION_EVENTS, "verification.decided"] as const;

export interface ParsedVerificationEvent {
  eventKey: string;
  publicId: string;
  event: string;
  status: string | null;
  refId: string | null;
  occurredAt: Date;
}

export type ParsedDelivery =
  | { kind: "malformed"; problem: string }
  | { kind: "ignored"; event: string; publicId: string | null }
  | { kind: "verification"; parsed: ParsedVerificationEvent };

const eventName = z
  .string()
  .max(64)
  .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/);
const instant = z.iso.datetime({ offset: true });
const publicId = z.string().refine(isPublicId, "is not a verification id");
// The closed set is five values (api/verification-statuses.mdx), but a new one must not drop an event.
const status = z
  .string()
  .regex(/^[a-z][a-z_]{0,31}$/)
  .nullish();
const refId = z.string().max(256).nullish();

const flat = z.object({ event: eventName, verification_id: publicId, status, ref_id: refId, occurred_at: instant });
const envelope = z.object({
  id: z.string().min(1).max(200),
  event: eventName,
  occurred_at: instant,
  resource: z.object({ type: z.string(), public_id: publicId }),
  verification: z.object({ status, ref_id: refId }).nullish(),
});

// An event named after its outcome says the status even when the body leaves it out
// (ASSUMPTION (docs/assumptions.md#webhook-events)).
const STATUS_OF_EVENT: Record<string, string> = {
  "verification.approved": "approved",
  "verification.reproved": "reproved",
  "verification.review": "review",
};

function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join(".") || "body"}: ${issue.message}` : "body: not valid";
}

export function parseDelivery(rawBody: string): ParsedDelivery {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { kind: "malformed", problem: "body: not JSON" };
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) return { kind: "malformed", problem: "body: not a JSON object" };
  const named = eventName.safeParse((body as { event?: unknown }).event);
  if (!named.success) return { kind: "malformed", problem: `event: ${named.error.issues[0]?.message ?? "missing"}` };
  const event = named.data;

  const isEnvelope = "resource" in body;
  if (!(RECEIVED_VERIFICATION_EVENTS as readonly string[]).includes(event)) {
    const resource = (body as { resource?: { public_id?: unknown } }).resource;
    const id = isEnvelope ? resource?.public_id : (body as { verification_id?: unknown }).verification_id;
    return { kind: "ignored", event, publicId: isPublicId(id) ? id : null };
  }

  if (isEnvelope) {
    const read = envelope.safeParse(body);
    if (!read.success) return { kind: "malformed", problem: problemOf(read.error) };
    const { id, occurred_at, resource, verification } = read.data;
    if (resource.type !== "verification") return { kind: "malformed", problem: "resource.type: must be verification" };
    return {
      kind: "verification",
      parsed: {
        eventKey: `id:${id}`,
        publicId: resource.public_id,
        event,
        status: verification?.status ?? STATUS_OF_EVENT[event] ?? null,
        refId: verification?.ref_id ?? null,
        occurredAt: new Date(occurred_at),
      },
    };
  }

  const read = flat.safeParse(body);
  if (!read.success) return { kind: "malformed", problem: problemOf(read.error) };
  const { verification_id, occurred_at, ref_id } = read.data;
  const resolved = read.data.status ?? STATUS_OF_EVENT[event] ?? null;
  const occurredAt = new Date(occurred_at);
  const digest = createHash("sha256")
    .update(JSON.stringify([event, verification_id, resolved, occurredAt.toISOString()]))
    .digest("hex");
  return {
    kind: "verification",
    parsed: { eventKey: `sha256:${digest}`, publicId: verification_id, event, status: resolved, refId: ref_id ?? null, occurredAt },
  };
}

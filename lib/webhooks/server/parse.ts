import { createHash } from "node:crypto";

import { z } from "zod";

import { VERIFICATION_EVENTS } from "@/lib/upstream/model/verification";
import { isPublicId } from "@/lib/upstream/model/verification-query";

/*
 * Reads a signed delivery's body. The provider's material shows two shapes, and both are read:
 *
 * - flat (Legitimuz-Tech/legitimuz-core-documentation api/webhooks.mdx at afcc2cb, the documentation's own example,
 *   "the preview the dashboard shows", to be confirmed once deliveries exist):
 *   `{ event, verification_id, ref_id, status, identity_score, fraud_score, occurred_at }`;
 * - envelope (Legitimuz-Tech/legitimuz-examples pocs/webhook-receiver/lib/tipos.ts at dec4b2c, and the workers that
 *   read it): `{ id, event, occurred_at, tenant_public_id, resource: { type, public_id },
 *   verification?: { status, ref_id, decided_at } }`.
 *
 * Every field either shape names is read, in the shape that names it: the scores from the flat one, the tenant and
 * the decision time from the envelope. A field that is there but not readable (a score that is not a number) is
 * left out rather than refusing the event: it adds to the event, it does not identify it.
 *
 * Event names: the documentation's catalogue (verification.created, .updated, .approved, .reproved, .review,
 * .expired) plus the examples' `verification.decided`, which the documentation does not list. Any other event
 * (flow.published, names not published yet) is acknowledged and ignored, as the examples recommend. Unknown fields
 * are kept out of the way rather than refused (tipos.ts: "new fields may appear").
 *
 * One upstream event may arrive in several deliveries (api/webhooks.mdx: "deduplicate by event, not by arrival"):
 * its key is the envelope's `id`, or for the flat shape, which carries no event id, a hash of the fields that
 * identify it (event, verification, status, occurred_at). ASSUMPTION (docs/assumptions.md#webhook-deduplication):
 * a redelivery repeats them unchanged.
 */

/**
 * The documentation's events (lib/upstream/model/verification.ts) plus the examples' `verification.decided`
 * (legitimuz-examples pocs/webhook-receiver/worker.ts), which the receiver reads too.
 */
export const RECEIVED_VERIFICATION_EVENTS = [...VERIFICATION_EVENTS, "verification.decided"] as const;

export interface ParsedVerificationEvent {
  eventKey: string;
  publicId: string;
  event: string;
  status: string | null;
  refId: string | null;
  occurredAt: Date;
  /** The flat shape's scores (api/webhooks.mdx), null when absent or not a number. */
  identityScore: number | null;
  fraudScore: number | null;
  /** The envelope's `verification.decided_at` (tipos.ts), null when absent. */
  decidedAt: Date | null;
  /** The envelope's `tenant_public_id` (tipos.ts): which account sent it, for routing by connection. */
  tenantPublicId: string | null;
}

export type ParsedDelivery =
  | { kind: "malformed"; problem: string; event: string | null }
  | { kind: "ignored"; event: string; publicId: string | null; occurredAt: Date | null; tenantPublicId: string | null }
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
// Additions to the event: read when readable, else left out (never a reason to refuse it).
const score = z.number().finite().nullish().catch(null);
const decidedAt = instant.nullish().catch(null);
// An account's public id: a plain identifier, kept to route a delivery to its connection.
const tenantPublicId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/)
  .nullish()
  .catch(null);

/*
 * The flat shape's `verification_id` is the verification's `public_id`. ASSUMPTION
 * (docs/assumptions.md#webhook-verification-id): the documentation's example (legitimuz-core-documentation
 * api/webhooks.mdx at afcc2cb) calls it `verification_id` and never says it is the id the core API's paths take; the
 * contract says only that the public id "arrives in webhooks".
 */
const flat = z.object({
  event: eventName,
  verification_id: publicId,
  status,
  ref_id: refId,
  occurred_at: instant,
  identity_score: score,
  fraud_score: score,
});
const envelope = z.object({
  id: z.string().min(1).max(200),
  event: eventName,
  occurred_at: instant,
  tenant_public_id: tenantPublicId,
  resource: z.object({ type: z.string(), public_id: publicId }),
  verification: z.object({ status, ref_id: refId, decided_at: decidedAt }).nullish(),
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

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

export function parseDelivery(rawBody: string): ParsedDelivery {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { kind: "malformed", problem: "body: not JSON", event: null };
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    return { kind: "malformed", problem: "body: not a JSON object", event: null };
  const named = eventName.safeParse((body as { event?: unknown }).event);
  if (!named.success) return { kind: "malformed", problem: `event: ${named.error.issues[0]?.message ?? "missing"}`, event: null };
  const event = named.data;

  const isEnvelope = "resource" in body;
  if (!(RECEIVED_VERIFICATION_EVENTS as readonly string[]).includes(event)) return ignoredEvent(body, event, isEnvelope);

  if (isEnvelope) {
    const read = envelope.safeParse(body);
    if (!read.success) return { kind: "malformed", problem: problemOf(read.error), event };
    const { id, occurred_at, resource, verification } = read.data;
    if (resource.type !== "verification") return { kind: "malformed", problem: "resource.type: must be verification", event };
    return {
      kind: "verification",
      parsed: {
        eventKey: `id:${id}`,
        publicId: resource.public_id,
        event,
        status: verification?.status ?? STATUS_OF_EVENT[event] ?? null,
        refId: verification?.ref_id ?? null,
        occurredAt: new Date(occurred_at),
        identityScore: null,
        fraudScore: null,
        decidedAt: verification?.decided_at ? new Date(verification.decided_at) : null,
        tenantPublicId: read.data.tenant_public_id ?? null,
      },
    };
  }

  const read = flat.safeParse(body);
  if (!read.success) return { kind: "malformed", problem: problemOf(read.error), event };
  const { verification_id, occurred_at, ref_id } = read.data;
  const resolved = read.data.status ?? STATUS_OF_EVENT[event] ?? null;
  const occurredAt = new Date(occurred_at);
  const digest = sha256(JSON.stringify([event, verification_id, resolved, occurredAt.toISOString()]));
  return {
    kind: "verification",
    parsed: {
      eventKey: `sha256:${digest}`,
      publicId: verification_id,
      event,
      status: resolved,
      refId: ref_id ?? null,
      occurredAt,
      identityScore: read.data.identity_score ?? null,
      fraudScore: read.data.fraud_score ?? null,
      decidedAt: null,
      tenantPublicId: null,
    },
  };
}

/** An event the dashboard does not use: what identifies it, when the body says. */
function ignoredEvent(body: object, event: string, isEnvelope: boolean): ParsedDelivery {
  const fields = body as {
    resource?: { public_id?: unknown };
    verification_id?: unknown;
    occurred_at?: unknown;
    tenant_public_id?: unknown;
  };
  const id = isEnvelope ? fields.resource?.public_id : fields.verification_id;
  const occurred = instant.safeParse(fields.occurred_at);
  return {
    kind: "ignored",
    event,
    publicId: isPublicId(id) ? id : null,
    occurredAt: occurred.success ? new Date(occurred.data) : null,
    tenantPublicId: tenantPublicId.parse(fields.tenant_public_id) ?? null,
  };
}

export type DeliveryKeySource = "header" | "event" | "body";

/**
 * The key a delivery is deduplicated by when it came without a usable delivery id header (only the examples show
 * `X-Legitimuz-Delivery`: legitimuz-examples pocs/express-backend/server.ts at 7780eac; the documentation,
 * legitimuz-core-documentation api/webhooks.mdx at afcc2cb, names no such header and says to deduplicate by event,
 * not by arrival): the event's own identity, its name, verification and time, hashed; for a body that says less (an
 * unreadable one, an event about no verification), a hash of the body's bytes, so the same bytes again are one
 * delivery. ASSUMPTION (docs/assumptions.md#webhook-deduplication): a redelivery repeats these unchanged.
 */
export function fallbackDeliveryKey(read: ParsedDelivery, rawBody: string): { key: string; source: Exclude<DeliveryKeySource, "header"> } {
  const identity =
    read.kind === "verification"
      ? [read.parsed.event, read.parsed.publicId, read.parsed.occurredAt]
      : read.kind === "ignored" && read.publicId && read.occurredAt
        ? [read.event, read.publicId, read.occurredAt]
        : null;
  if (!identity) return { key: `body:${sha256(rawBody)}`, source: "body" };
  const [event, id, at] = identity as [string, string, Date];
  return { key: `event:${sha256(JSON.stringify([event, id, at.toISOString()]))}`, source: "event" };
}

/** What an unreadable body leaves of itself: its size and digest (never its bytes, which may hold anything). */
export function bodyFingerprint(rawBody: string): { bytes: number; sha256: string } {
  return { bytes: Buffer.byteLength(rawBody, "utf8"), sha256: sha256(rawBody) };
}

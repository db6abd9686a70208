import { randomBytes } from "node:crypto";

import { signWebhook } from "@/lib/webhooks/server/signature";

/*
 * Test helpers: delivery bodies in the two shapes the provider's material shows (values our own), and
 * signed requests as the service sends them.
 */

export const TEST_WEBHOOK_SECRET = "test-webhook-signing-secret-0123456789";
export const WEBHOOK_URL = "http://localhost:3000/api/webhooks/verification-events";

export const uniqueId = (prefix: string) => `${prefix}_${randomBytes(6).toString("hex")}`;

/** The core documentation's flat shape. */
export function flatEvent(publicId: string, fields: Record<string, unknown> = {}) {
  return {
    event: "verification.updated",
    verification_id: publicId,
    ref_id: "pedido-0001",
    status: "approved",
    identity_score: 812,
    fraud_score: 120,
    occurred_at: new Date().toISOString(),
    ...fields,
  };
}

/** The examples' envelope shape. */
export function envelopeEvent(publicId: string, fields: Record<string, unknown> = {}) {
  return {
    id: uniqueId("evt"),
    event: "verification.decided",
    occurred_at: new Date().toISOString(),
    tenant_public_id: "tenant_demo",
    resource: { type: "verification", public_id: publicId },
    verification: { status: "reproved", ref_id: "pedido-0002", decided_at: new Date().toISOString() },
    ...fields,
  };
}

export interface DeliveryOptions {
  deliveryId?: string | null;
  secret?: string;
  timestamp?: number;
  signature?: string | null;
  contentType?: string;
  headers?: Record<string, string>;
}

export function webhookRequest(body: unknown, options: DeliveryOptions = {}): Request {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const headers = new Headers({ "content-type": options.contentType ?? "application/json", ...options.headers });
  const signature =
    options.signature === undefined ? signWebhook(options.secret ?? TEST_WEBHOOK_SECRET, raw, options.timestamp) : options.signature;
  if (signature !== null) headers.set("x-legitimuz-signature", signature);
  const deliveryId = options.deliveryId === undefined ? uniqueId("dlv") : options.deliveryId;
  if (deliveryId !== null) headers.set("x-legitimuz-delivery", deliveryId);
  return new Request(WEBHOOK_URL, { method: "POST", headers, body: raw });
}

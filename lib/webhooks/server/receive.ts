import "server-only";

import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";

import { parseDelivery } from "./parse";
import { verifyWebhookSignature } from "./signature";
import { storeDelivery } from "./store";

/*
 * What POST /api/webhooks/verification-events does with a delivery, in the order the provider's material
 * asks for: the signature over the raw body first (nothing is read before it holds), then the delivery
 * id, then the body; the delivery is stored (with its audit record) before the answer, and processed
 * later (lib/webhooks/server/processor.ts). A refusal stores nothing. Logs carry ids, event type and status only.
 */

// Delivery ids are the sender's identifiers: short and plain. Anything else is refused before storing.
const DELIVERY_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export interface Receipt {
  status: 200 | 202;
  body: { received: true; duplicate: boolean; ignored: boolean };
}

export async function receiveDelivery(
  db: Database,
  input: { rawBody: string; headers: Headers; ip: string | null; now?: Date },
): Promise<Receipt> {
  const settings = config().webhooks;
  if (!settings.signing) {
    log.warn("webhook_refused", { reason: "not_configured" });
    // 503: the sender keeps the delivery and tries again once the secret is configured.
    throw new AppError("upstream_unavailable", "Webhooks are not configured on this server (WEBHOOK_SIGNING_SECRET).", {
      retryable: true,
    });
  }
  const headerDeliveryId = input.headers.get(settings.deliveryHeader);
  const check = verifyWebhookSignature({
    header: input.headers.get(settings.signatureHeader),
    rawBody: input.rawBody,
    secrets: settings.signing.keys.map((key) => key.secret),
    toleranceSeconds: settings.toleranceSeconds,
    now: input.now,
  });
  if (!check.ok) {
    log.warn("webhook_refused", { reason: `signature_${check.problem}`, deliveryId: safeId(headerDeliveryId) });
    throw new AppError("unauthenticated", "The webhook signature is missing, invalid or outside the tolerance window.");
  }

  const deliveryId = headerDeliveryId?.trim() ?? "";
  if (!DELIVERY_ID.test(deliveryId)) {
    log.warn("webhook_refused", { reason: "delivery_id" });
    throw new AppError("validation", `The ${settings.deliveryHeader} header must carry the delivery id (letters, digits, . _ : -).`, {
      fields: [settings.deliveryHeader],
    });
  }

  const parsed = parseDelivery(input.rawBody);
  if (parsed.kind === "malformed") {
    log.warn("webhook_refused", { reason: "malformed", deliveryId });
    throw new AppError("validation", `The webhook body is not a readable event: ${parsed.problem}.`, {
      fields: [parsed.problem.split(":")[0] ?? "body"],
    });
  }

  const { stored } = await storeDelivery(db, { deliveryId, rawBody: input.rawBody, parsed, ip: input.ip });
  const event = parsed.kind === "verification" ? parsed.parsed.event : parsed.event;
  const status = parsed.kind === "verification" ? parsed.parsed.status : null;
  log.info("webhook_received", { deliveryId, eventType: event, status, duplicate: !stored, ignored: parsed.kind === "ignored" });
  // 202 for a delivery stored now (processing follows), 200 for a redelivery already held.
  return { status: stored ? 202 : 200, body: { received: true, duplicate: !stored, ignored: parsed.kind === "ignored" } };
}

function safeId(value: string | null): string | undefined {
  return value && DELIVERY_ID.test(value) ? value : undefined;
}

import "server-only";

import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";

import { fallbackDeliveryKey, parseDelivery, type DeliveryKeySource } from "./parse";
import { verifyWebhookSignature } from "./signature";
import { storeDelivery } from "./store";

/*
 * What POST /api/webhooks/verification-events does with a delivery, in the order the provider's material asks for:
 * the signature over the raw body first (nothing is read before it holds, and a delivery without a valid one is
 * refused with 401 and stores nothing), then the body and the delivery's key; the delivery is stored (with its audit
 * record) before the answer, and processed later (lib/webhooks/server/processor.ts). Logs carry ids, event type and
 * status only.
 *
 * After a valid signature every delivery is kept and answered 2xx (Legitimuz-Tech/legitimuz-core-documentation
 * api/webhooks.mdx at afcc2cb: the delivery's verdict is about reception, not processing; anything but 2xx is
 * redelivered, up to six times per legitimuz-examples pocs/webhook-receiver/README.md, and marks the destination
 * failing). So a missing delivery id header is not a refusal: the key falls back on the event's own identity
 * (`fallbackDeliveryKey`), and a body that cannot be read is kept flagged `unparseable`, never retried.
 */

// Delivery ids are the sender's identifiers: short and plain. Anything else is not used as a key.
const DELIVERY_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export interface Receipt {
  status: 200 | 202;
  body: { received: true; duplicate: boolean; ignored: boolean; unparseable: boolean };
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
  const headerDeliveryId = input.headers.get(settings.deliveryHeader)?.trim() ?? null;
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

  const parsed = parseDelivery(input.rawBody);
  const key: { key: string; source: DeliveryKeySource } = safeId(headerDeliveryId)
    ? { key: headerDeliveryId!, source: "header" }
    : fallbackDeliveryKey(parsed, input.rawBody);
  const deliveryId = key.key;
  if (key.source !== "header")
    log.info("webhook_delivery_key", { deliveryId, source: key.source, headerPresent: headerDeliveryId !== null });

  const { stored } = await storeDelivery(db, { deliveryId, keySource: key.source, rawBody: input.rawBody, parsed, ip: input.ip });
  const unparseable = parsed.kind === "malformed";
  const ignored = parsed.kind === "ignored";
  if (unparseable) {
    log.warn("webhook_unparseable", { deliveryId, problem: parsed.problem, duplicate: !stored });
  } else {
    const event = parsed.kind === "verification" ? parsed.parsed.event : parsed.event;
    const status = parsed.kind === "verification" ? parsed.parsed.status : null;
    log.info("webhook_received", { deliveryId, eventType: event, status, duplicate: !stored, ignored });
  }
  // 202 for a delivery stored now with processing to follow; 200 for a redelivery already held, or a body kept
  // only as a record (nothing to process).
  return { status: stored && !unparseable ? 202 : 200, body: { received: true, duplicate: !stored, ignored, unparseable } };
}

function safeId(value: string | null): string | undefined {
  return value && DELIVERY_ID.test(value) ? value : undefined;
}

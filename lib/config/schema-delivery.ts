import "server-only";

import { z } from "zod";

import { headerName, positiveInt } from "@/lib/config/fields";

/** What comes in (webhooks from the service) and goes out (email notifications). */
export const deliveryVariables = {
  // ASSUMPTION (docs/assumptions.md#webhook-signature; Legitimuz-Tech/legitimuz-examples pocs/*/webhook receivers;
  // the core documentation leaves the scheme unpublished): header names of the webhook signature (`t=<unix>,v1=<hex HMAC-SHA256>`) and of the
  // delivery id, and the tolerance window on the signed timestamp.
  WEBHOOK_SIGNATURE_HEADER: headerName.default("X-Legitimuz-Signature"),
  WEBHOOK_DELIVERY_HEADER: headerName.default("X-Legitimuz-Delivery"),
  WEBHOOK_TOLERANCE_SECONDS: positiveInt.max(3600).default(300),
  // How often each instance sweeps stored deliveries that were not processed yet (a crash, a failed listener).
  WEBHOOK_SWEEP_SECONDS: positiveInt.max(3600).default(30),
  // Notifications out of the app (lib/notifications/server): an SMTP server for email, e.g.
  // smtp://user:pass@host:587 (smtps:// for TLS from the first byte), and the sender's address. Unset: no email.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/?#\s]+/, "must be an smtp:// or smtps:// URL")
    .optional(),
  SMTP_FROM: z.string().email("must be an email address").default("kyc-backoffice@localhost"),
  // smtp:// with credentials must upgrade with STARTTLS (the password never goes in clear, even when the server or
  // someone in between does not offer it). `on` lifts that for a test server on this machine only: refused unless
  // SMTP_URL's host is a loopback address (smtpProblems).
  SMTP_PLAINTEXT_LOOPBACK: z.enum(["on", "off"], { message: "must be on or off" }).default("off"),
};

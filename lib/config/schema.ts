import "server-only";

import { z } from "zod";

import { SANDBOX_DEFAULTS } from "@/lib/config/defaults";
import { chatWebhookUrl, httpUrl, secret, webhookSecret } from "@/lib/config/fields";
import { caseVariables } from "@/lib/config/schema-cases";
import { deliveryVariables } from "@/lib/config/schema-delivery";
import { quotaVariables, retentionVariables } from "@/lib/config/schema-limits";
import { operationsVariables } from "@/lib/config/schema-operations";
import { signInVariables } from "@/lib/config/schema-sign-in";
import { upstreamVariables } from "@/lib/config/schema-upstream";

// One object per area, in this order: a problem list names the variables in it.
export const sharedSchema = z.object({
  ...upstreamVariables,
  DISPLAY_TIME_ZONE: z
    .string()
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, "must be an IANA time zone")
    .default("America/Sao_Paulo"),
  DATA_DIR: z.string().min(1).default(".data"),
  ...quotaVariables,
  ...retentionVariables,
  ...caseVariables,
  // The dashboard's public address (next-auth redirects; https there means Secure, prefixed cookies).
  NEXTAUTH_URL: httpUrl.optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  ...signInVariables,
  ...deliveryVariables,
  ...operationsVariables,
});

export type SharedValues = z.infer<typeof sharedSchema>;

export const serviceSchema = sharedSchema.extend({
  CORE_URL: httpUrl,
  CORE_API_KEY: z.string().min(8, "must be the service's API key"),
  PARTNERS_URL: httpUrl,
  PARTNERS_USERNAME: z.string().min(1),
  PARTNERS_PASSWORD: z.string().min(1),
  PARTNERS_DOMAIN: z.string().min(1),
  PARTNERS_INTEGRATION_TOKEN: z.string().min(8),
  /**
   * The integration token put in the widget address that reaches the person's phone (the `token` query
   * parameter of get-sdk-url's `url`). A dedicated, least-privileged integration: whoever holds the link
   * reads it, so start-up refuses it unset or equal to the lookup token (widgetTokenProblems).
   */
  PARTNERS_WIDGET_INTEGRATION_TOKEN: z.string().min(8),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL"),
  // Required with the real service: without it the request's Host header would decide the links in emails, the
  // passkeys' origin and where signing out returns.
  NEXTAUTH_URL: httpUrl,
  NEXTAUTH_SECRET: secret,
  MEDIA_SEAL_SECRET: secret,
  AUDIT_HASH_SECRET: secret,
  // Encrypts case notes and comments at rest (lib/cases/server), never leaves the server.
  DATA_ENCRYPTION_SECRET: secret,
  // Issued by the provider when the webhook destination is registered (shown once). Optional: without it
  // the receiver refuses every delivery (503) and start-up warns, the rest of the dashboard still works.
  WEBHOOK_SIGNING_SECRET: webhookSecret.optional(),
  CHAT_WEBHOOK_URL: chatWebhookUrl(/^https:\/\//, "must be an https:// URL"),
});

export const embeddedSchema = sharedSchema.extend({
  // `npm run bench -- load` turns on its bare-proxy route in the server it starts (app/api/bench/proxy).
  BENCH_ROUTES: z.enum(["on", "off"]).default("off"),
  CHAT_WEBHOOK_URL: chatWebhookUrl(/^https?:\/\//, "must be an http:// or https:// URL"),
  // Where the sandbox listens; tests start one on a random port and point here.
  SANDBOX_URL: httpUrl.default(SANDBOX_DEFAULTS.url),
  // The embedded default may still use PostgreSQL (tests do, through TEST_DATABASE_URL).
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  CORE_API_KEY: z.string().min(8).default(SANDBOX_DEFAULTS.coreApiKey),
  NEXTAUTH_SECRET: secret.optional(),
  MEDIA_SEAL_SECRET: secret.optional(),
  AUDIT_HASH_SECRET: secret.optional(),
  DATA_ENCRYPTION_SECRET: secret.optional(),
  WEBHOOK_SIGNING_SECRET: webhookSecret.optional(),
});

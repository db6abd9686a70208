import "server-only";

import nodemailer, { type Transporter } from "nodemailer";

import { config } from "@/lib/config";

import type { OutgoingMessage } from "./messages";

/*
 * The two ways out: email through the SMTP server of SMTP_URL (nodemailer; smtp:// upgrades with STARTTLS
 * when the server offers it, smtps:// is TLS from the first byte), and a Slack-compatible incoming webhook
 * (POST {"text": …}). Each throws on failure; the outbox retries.
 */

export interface Transports {
  email(recipient: string, message: OutgoingMessage): Promise<void>;
  chat(message: OutgoingMessage): Promise<void>;
}

const SEND_TIMEOUT_MS = 15_000;

const cache = globalThis as typeof globalThis & { __kycSmtp?: { url: string; transporter: Transporter } };

function smtpTransporter(url: string): Transporter {
  if (cache.__kycSmtp?.url !== url) {
    // Pooled connections would outlive a test's server; one connection per message is plenty for this volume.
    cache.__kycSmtp = { url, transporter: nodemailer.createTransport(url) };
  }
  return cache.__kycSmtp.transporter;
}

export function configuredTransports(): Transports {
  return {
    async email(recipient, message) {
      const { smtpUrl, smtpFrom } = config().notifications;
      if (!smtpUrl) throw new Error("SMTP_URL is not set");
      await smtpTransporter(smtpUrl).sendMail({ from: smtpFrom, to: recipient, subject: message.subject, text: message.body });
    },
    async chat(message) {
      const url = config().notifications.chatWebhookUrl;
      if (!url) throw new Error("CHAT_WEBHOOK_URL is not set");
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: message.body }),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        redirect: "error",
      });
      // Slack answers 200 "ok"; anything else is a failure to retry (its body is not kept: it may echo the text).
      await response.body?.cancel();
      if (!response.ok) throw new Error(`chat webhook answered ${response.status}`);
    },
  };
}

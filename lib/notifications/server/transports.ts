import "server-only";

import nodemailer, { type Transporter } from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import type SMTPTransport from "nodemailer/lib/smtp-transport";

import { config } from "@/lib/config";

import type { OutgoingMessage } from "./messages";

/*
 * The two ways out: email through the SMTP server of SMTP_URL (nodemailer; smtp:// upgrades with STARTTLS, required
 * when the URL holds credentials; smtps:// is TLS from the first byte), and a Slack-compatible incoming webhook
 * (POST {"text": …}). Each throws on failure; the outbox retries.
 */

export interface Transports {
  email(recipient: string, message: OutgoingMessage): Promise<void>;
  chat(message: OutgoingMessage): Promise<void>;
}

const SEND_TIMEOUT_MS = 15_000;

const cache = globalThis as typeof globalThis & { __kycSmtp?: { key: string; transporter: Transporter } };

/**
 * nodemailer's options for SMTP_URL. smtp:// with credentials requires STARTTLS (`requireTLS`, whatever the URL's
 * query says): a server that does not offer it, or someone in between who strips the offer, makes the send fail
 * instead of receiving the password in clear. SMTP_PLAINTEXT_LOOPBACK (a test server on this machine, lib/config/)
 * lifts it.
 */
export function smtpOptions(url: string, plaintextLoopback: boolean): SMTPTransport.Options {
  const options = parseConnectionUrl(url);
  if (options.secure || !options.auth || plaintextLoopback) return options;
  return { ...options, requireTLS: true, ignoreTLS: false };
}

function smtpTransporter(url: string, plaintextLoopback: boolean): Transporter {
  const key = `${plaintextLoopback}:${url}`;
  if (cache.__kycSmtp?.key !== key) {
    // Pooled connections would outlive a test's server; one connection per message is plenty for this volume.
    cache.__kycSmtp = { key, transporter: nodemailer.createTransport(smtpOptions(url, plaintextLoopback)) };
  }
  return cache.__kycSmtp.transporter;
}

export function configuredTransports(): Transports {
  return {
    async email(recipient, message) {
      const { smtpUrl, smtpFrom, smtpPlaintextLoopback } = config().notifications;
      if (!smtpUrl) throw new Error("SMTP_URL is not set");
      await smtpTransporter(smtpUrl, smtpPlaintextLoopback).sendMail({
        from: smtpFrom,
        to: recipient,
        subject: message.subject,
        text: message.body,
      });
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

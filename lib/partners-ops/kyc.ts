import "server-only";

import QRCode from "qrcode";

import { record } from "@/lib/audit";
import type { KycSession } from "@/lib/domain/partners";
import { isUpstreamError } from "@/lib/upstream/http";
import type { PartnersClient } from "@/lib/upstream/partners";

import { recordFailure } from "./audit";
import type { Actor } from "./integrations";

/*
 * Starting a KYC session: the widget address goes to the operator (with a QR code so the person can open
 * it on a phone) and nowhere else. The address carries the integration token in its `token` parameter,
 * so it is never stored, logged or put in the audit trail: the event says only that a session was started
 * for a (masked) CPF.
 */

export interface StartedKycSession extends KycSession {
  /** The widget address as an SVG QR code, in a data URL (made here so the browser needs no QR library). */
  qrCode: string;
}

/** An SVG QR code of `text` as a data URL. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
}

export async function startKycSession(
  client: PartnersClient,
  { actor, ip, cpf, lang }: { actor: Actor; ip: string | null; cpf: string; lang: string },
): Promise<StartedKycSession> {
  let session: KycSession;
  try {
    session = await client.startKycSession({ cpf, lang });
  } catch (error) {
    await recordFailure({
      actor,
      action: "kyc.session_start",
      target: { type: "cpf", cpf },
      outcome: "failure",
      ip,
      details: { reason: isUpstreamError(error) ? error.kind : "error", lang },
    });
    throw error;
  }
  await record({
    actor,
    action: "kyc.session_start",
    target: { type: "cpf", cpf },
    outcome: "success",
    ip,
    details: { lang, status: session.status.slice(0, 40), validationStep: session.validationStep },
  });
  return { ...session, qrCode: await qrCodeDataUrl(session.url) };
}

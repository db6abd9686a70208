import "server-only";

import QRCode from "qrcode";

import { auditedAction, type RequestContext } from "@/lib/audit-trail/server";
import type { KycSession } from "@/lib/upstream/model/partners";
import type { PartnersClient } from "@/lib/upstream/partners";

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

/** Starts the session upstream: its intent is on the trail first (no intent, no session). */
export async function startKycSession(
  client: PartnersClient,
  context: RequestContext,
  { cpf, lang }: { cpf: string; lang: string },
): Promise<StartedKycSession> {
  const session = await auditedAction(
    context,
    {
      action: "kyc.session_start",
      target: { type: "cpf", cpf },
      details: { lang },
      detailsOf: (started: KycSession) => ({ status: started.status.slice(0, 40), validationStep: started.validationStep }),
    },
    () => client.startKycSession({ cpf, lang }),
  );
  return { ...session, qrCode: await qrCodeDataUrl(session.url) };
}

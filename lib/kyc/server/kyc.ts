import "server-only";

import { auditedAction, type RequestContext } from "@/lib/audit-trail/server";
import type { Database } from "@/lib/db/client";
import { consumeQuota } from "@/lib/db/quotas";
import type { KycSessionSummary } from "@/lib/kyc/types";
import { qrCodeDataUrl } from "@/lib/shared/qr-code";
import type { KycSession } from "@/lib/upstream/model/partners";
import type { PartnersClient } from "@/lib/upstream/partners";

/*
 * Starting a KYC session: the widget address goes to the operator (with a QR code so the person can open
 * it on a phone) and nowhere else. The address carries the integration token in its `token` parameter,
 * so it is never stored, logged or put in the audit trail: the event says only that a session was started
 * for a (masked) CPF, and why.
 */

export interface StartedKycSession extends KycSessionSummary {
  /** The widget address as an SVG QR code, in a data URL (made here so the browser needs no QR library). */
  qrCode: string;
}

/**
 * Starts the session upstream: its intent is on the trail first, with the purpose (no intent, no session),
 * then the member's KYC start quota (lib/db/quotas.ts; a refusal is recorded as denied and the service is
 * not called). Only what the page shows leaves: the service's answer also carries the person's enrichment
 * record, which is dropped here.
 */
export async function startKycSession(
  db: Database,
  client: PartnersClient,
  context: RequestContext,
  { cpf, lang, purpose }: { cpf: string; lang: string; purpose: string },
): Promise<StartedKycSession> {
  const session = await auditedAction(
    context,
    {
      action: "kyc.session_start",
      target: { type: "cpf", cpf },
      purpose,
      details: { lang },
      detailsOf: (started: KycSession) => ({ status: started.status.slice(0, 40), validationStep: started.validationStep }),
    },
    async () => {
      await consumeQuota(db, "kyc_start", context.actor?.id ?? "unknown");
      return client.startKycSession({ cpf, lang });
    },
  );
  const summary: KycSessionSummary = { url: session.url, sessionId: session.sessionId, status: session.status };
  return { ...summary, qrCode: await qrCodeDataUrl(session.url) };
}

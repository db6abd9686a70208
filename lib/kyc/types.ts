// Shared (no server imports): what the KYC session and SMS routes answer.

import type { KycSession } from "@/lib/upstream/model/partners";

/**
 * What the page shows of a started session, and all the answer carries: the service's answer also holds the
 * person's enrichment record (name, mother's name, birth date, PEP…), which stays on the server.
 */
export type KycSessionSummary = Pick<KycSession, "url" | "sessionId" | "status">;

/** POST /api/kyc/sessions */
export interface KycSessionResponse {
  session: KycSessionSummary;
  /** The widget address as an SVG QR code (data URL). */
  qrCode: string;
}

/** POST /api/sms/send */
export interface SmsSendResponse {
  sent: true;
  /** The phone as it was sent, formatted. */
  phone: string;
  resendAfterSeconds: number;
}

/** POST /api/sms/validate */
export interface SmsValidateResponse {
  valid: true;
  phone: string;
}

// Shared (no server imports): what the KYC session and SMS routes answer.

import type { KycSession } from "@/lib/upstream/model/partners";

/** POST /api/kyc/sessions */
export interface KycSessionResponse {
  session: KycSession;
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

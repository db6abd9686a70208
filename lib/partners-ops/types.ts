// Shared (no server imports): the shapes the partners-operations routes answer with.

import type { CpfHistoryRecord, FederalRevenueRecord, KycSession } from "@/lib/domain/partners";
import type { IntegrationKeySummary } from "@/lib/validations/integrations";

/** A key the admin created in the last few minutes and can still reveal (no value here). */
export interface RevealableKeyDto {
  upstreamId: number;
  label: string;
  domain: string;
  createdAt: string;
  revealUntil: string;
}

/** GET /api/integrations */
export interface IntegrationListResponse {
  keys: IntegrationKeySummary[];
  revealable: RevealableKeyDto[];
  revealWindowSeconds: number;
}

/** POST /api/integrations (201) and POST /api/integrations/reveal: the key value, once. */
export interface CreatedIntegrationResponse {
  integration: {
    upstreamId: number | null;
    label: string;
    /** As the service stored it: a host without scheme. */
    domain: string;
    createdAt: string | null;
    updatedAt: string | null;
    /** The key value. */
    key: string;
  };
  revealUntil: string;
}

/** POST /api/lookups/cpf */
export type CpfLookupResponse = { source: "receita"; record: FederalRevenueRecord } | { source: "history"; record: CpfHistoryRecord };

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

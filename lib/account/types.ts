// Shared (no server imports): what the member's own account routes answer (app/api/account/**).

import type { SessionView, StepUpMethod } from "@/lib/auth/types";

export type FactorKind = "totp" | "passkey";

/** One second factor of the signed-in member. */
export interface FactorDto {
  id: string;
  kind: FactorKind;
  label: string;
  /** False until the first code is verified (an authenticator app just added); it counts only once confirmed. */
  confirmed: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** GET /api/account/factors */
export interface FactorsResponse {
  factors: FactorDto[];
  recoveryCodesLeft: number;
  /** The policy (MFA_REQUIRED) requires this member to hold a confirmed factor. */
  required: boolean;
  stepUpMethods: StepUpMethod[];
}

/** POST /api/account/factors/totp: an unconfirmed authenticator app, and what to scan or type into it. */
export interface TotpStartResponse {
  id: string;
  secret: string;
  otpauthUri: string;
  /** PNG data: URL of the otpauth URI's QR code. */
  qrDataUrl: string;
}

/** POST /api/account/factors/totp/{id}/verify and POST /api/account/factors/passkeys. */
export interface FactorConfirmedResponse {
  factor: FactorDto;
  /** Ten single-use codes, only on the member's first factor, shown once. */
  recoveryCodes?: string[];
}

/**
 * One device's live sessions (lib/account/server/devices.ts): the view of its most recently active session (`id`, the
 * browser, system, address, method, last activity), started when its oldest one started, and how many it holds.
 */
export interface DeviceView extends SessionView {
  count: number;
}

/** One device of the member's, `current` when it holds this session. */
export interface SessionDto extends DeviceView {
  current: boolean;
}

import { apiRequest } from "./api-request";

/*
 * The step-up dialog's calls (components/auth/step-up-dialog.tsx). They never open the dialog themselves (`stepUp: false`):
 * a refusal here is the dialog's to show.
 */

export type StepUpMethod = "totp" | "passkey" | "recovery" | "password";

export interface StepUpVerified {
  verifiedAt: string;
  until: string;
}

/** What the member can step up with (GET /api/account/factors, `stepUpMethods`). */
export async function fetchStepUpMethods(signal?: AbortSignal): Promise<StepUpMethod[]> {
  const answer = await apiRequest<{ stepUpMethods?: StepUpMethod[] }>("/api/account/factors", { signal, stepUp: false });
  return answer.stepUpMethods ?? [];
}

/** One of a code (TOTP or recovery), a passkey's assertion or (no factor at all) the password. */
export type StepUpProof = { code: string } | { password: string } | { passkey: unknown };

export function postStepUp(proof: StepUpProof): Promise<StepUpVerified> {
  return apiRequest<StepUpVerified>("/api/account/step-up", { method: "POST", body: proof, stepUp: false });
}

/** The WebAuthn request options for the member's passkeys (for startAuthentication). */
export function fetchStepUpPasskeyOptions<Options>(): Promise<Options> {
  return apiRequest<Options>("/api/account/step-up/options", { method: "POST", body: {}, stepUp: false });
}

import type { StepUpMethod, StepUpProof, StepUpVerified } from "@/lib/auth/types";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * The step-up's own calls, in the auth layer: the dialog (components/auth/step-up-dialog.tsx) and the sign-in's
 * second step with a passkey. They never open the dialog themselves (`stepUp: false`): a refusal here is the
 * caller's to show.
 */

/** What the member can step up with (GET /api/account/factors, `stepUpMethods`). */
export async function fetchStepUpMethods(signal?: AbortSignal): Promise<StepUpMethod[]> {
  const answer = await apiRequest<{ stepUpMethods?: StepUpMethod[] }>("/api/account/factors", { signal, stepUp: false });
  return answer.stepUpMethods ?? [];
}

export function postStepUp(proof: StepUpProof): Promise<StepUpVerified> {
  return apiRequest<StepUpVerified>("/api/account/step-up", { method: "POST", body: proof, stepUp: false });
}

/** The WebAuthn request options for the member's passkeys (for startAuthentication). */
export function fetchStepUpPasskeyOptions<Options>(): Promise<Options> {
  return apiRequest<Options>("/api/account/step-up/options", { method: "POST", body: {}, stepUp: false });
}

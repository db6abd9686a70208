import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";

import type { FactorConfirmedResponse, TotpStartResponse } from "@/lib/account/types";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * The member's own account's requests from the browser (second factors, sessions), with no client cache: the account
 * page draws the factors and the sessions on the server, and each action is a request after which the page is drawn
 * again (components/ui/use-refreshing-request.ts). A removal that needs a fresh second factor answers 401
 * `step_up_required`; apiRequest asks for it in place and retries, so nothing here handles it. Writes without a
 * payload still send `{}`: the route kit checks every write's content type (415 otherwise).
 */

const factorPath = (id: string) => `/api/account/factors/${encodeURIComponent(id)}`;

/** Starts an authenticator app: an unconfirmed factor until its first code is verified (not listed until then). */
export const startTotp = ({ label }: { label: string }) =>
  apiRequest<TotpStartResponse>("/api/account/factors/totp", { method: "POST", body: { label } });
export const verifyTotp = ({ id, code }: { id: string; code: string }) =>
  apiRequest<FactorConfirmedResponse>(`/api/account/factors/totp/${encodeURIComponent(id)}/verify`, { method: "POST", body: { code } });

/**
 * A passkey in one step for the caller: the creation options, the browser's ceremony (`register`,
 * @simplewebauthn/browser's startRegistration), then the answer to the server.
 */
export async function addPasskey(
  label: string,
  register: (options: PublicKeyCredentialCreationOptionsJSON) => Promise<RegistrationResponseJSON>,
): Promise<FactorConfirmedResponse> {
  const options = await apiRequest<PublicKeyCredentialCreationOptionsJSON>("/api/account/factors/passkeys/options", {
    method: "POST",
    body: {},
  });
  const response = await register(options);
  return apiRequest<FactorConfirmedResponse>("/api/account/factors/passkeys", { method: "POST", body: { label, response } });
}

export const removeFactor = ({ id }: { id: string }) => apiRequest<{ removed: true }>(factorPath(id), { method: "DELETE", body: {} });

export const endSession = ({ id }: { id: string }) =>
  apiRequest<{ ended: true }>(`/api/account/sessions/${encodeURIComponent(id)}`, { method: "DELETE", body: {} });
export const endOtherSessions = () => apiRequest<{ ended: number }>("/api/account/sessions", { method: "DELETE", body: {} });

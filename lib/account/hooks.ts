import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { FactorConfirmedResponse, FactorsResponse, SessionsResponse, TotpStartResponse } from "@/lib/account/types";
import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";

/*
 * The member's own account in the browser (second factors, sessions): key factory, fetchers, one hook per
 * query or mutation. A removal that needs a fresh second factor answers 401 `step_up_required`; apiRequest
 * asks for it in place and retries, so nothing here handles it. Writes without a payload still send `{}`: the
 * route kit checks every write's content type (415 otherwise).
 */

export const accountKeys = {
  all: ["account"] as const,
  factors: () => [...accountKeys.all, "factors"] as const,
  sessions: () => [...accountKeys.all, "sessions"] as const,
};

const factorPath = (id: string) => `/api/account/factors/${encodeURIComponent(id)}`;

export const fetchFactors = () => apiRequest<FactorsResponse>("/api/account/factors");
export const startTotp = (label: string) => apiRequest<TotpStartResponse>("/api/account/factors/totp", { method: "POST", body: { label } });
export const verifyTotp = (id: string, code: string) =>
  apiRequest<FactorConfirmedResponse>(`/api/account/factors/totp/${encodeURIComponent(id)}/verify`, { method: "POST", body: { code } });
export const passkeyOptions = () =>
  apiRequest<PublicKeyCredentialCreationOptionsJSON>("/api/account/factors/passkeys/options", { method: "POST", body: {} });
export const addPasskey = (label: string, response: RegistrationResponseJSON) =>
  apiRequest<FactorConfirmedResponse>("/api/account/factors/passkeys", { method: "POST", body: { label, response } });
export const removeFactor = (id: string) => apiRequest<{ removed: true }>(factorPath(id), { method: "DELETE", body: {} });

export const fetchSessions = () => apiRequest<SessionsResponse>("/api/account/sessions");
export const endSession = (id: string) =>
  apiRequest<{ ended: true }>(`/api/account/sessions/${encodeURIComponent(id)}`, { method: "DELETE", body: {} });
export const endOtherSessions = () => apiRequest<{ ended: number }>("/api/account/sessions", { method: "DELETE", body: {} });

export function useFactorsQuery() {
  return useQuery<FactorsResponse, ApiRequestError>({ queryKey: accountKeys.factors(), queryFn: fetchFactors });
}

export function useSessionsQuery() {
  return useQuery<SessionsResponse, ApiRequestError>({ queryKey: accountKeys.sessions(), queryFn: fetchSessions });
}

/** Starts an authenticator app: an unconfirmed factor until its first code is verified (not listed until then). */
export function useStartTotpMutation() {
  return useMutation<TotpStartResponse, ApiRequestError, { label: string }>({ mutationFn: ({ label }) => startTotp(label) });
}

export function useVerifyTotpMutation() {
  const queryClient = useQueryClient();
  return useMutation<FactorConfirmedResponse, ApiRequestError, { id: string; code: string }>({
    mutationFn: ({ id, code }) => verifyTotp(id, code),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.factors() }),
  });
}

/**
 * A passkey in one step for the caller: the creation options, the browser's ceremony (the
 * `register` argument, @simplewebauthn/browser's startRegistration), then the answer to the server.
 */
export function useAddPasskeyMutation(register: (options: PublicKeyCredentialCreationOptionsJSON) => Promise<RegistrationResponseJSON>) {
  const queryClient = useQueryClient();
  return useMutation<FactorConfirmedResponse, ApiRequestError | Error, { label: string }>({
    mutationFn: async ({ label }) => addPasskey(label, await register(await passkeyOptions())),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.factors() }),
  });
}

export function useRemoveFactorMutation() {
  const queryClient = useQueryClient();
  return useMutation<{ removed: true }, ApiRequestError, { id: string }>({
    mutationFn: ({ id }) => removeFactor(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.factors() }),
  });
}

export function useEndSessionMutation() {
  const queryClient = useQueryClient();
  return useMutation<{ ended: true }, ApiRequestError, { id: string }>({
    mutationFn: ({ id }) => endSession(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}

export function useEndOtherSessionsMutation() {
  const queryClient = useQueryClient();
  return useMutation<{ ended: number }, ApiRequestError, void>({
    mutationFn: () => endOtherSessions(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}

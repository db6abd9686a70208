import { useMutation } from "@tanstack/react-query";

import type { CpfLookupResponse, RecordLookupResponse } from "@/lib/lookups/types";
import type { CpfLookupInput, RecordLookupInput } from "@/lib/lookups/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * CPF lookups in the browser. A lookup is a POST (the CPF travels in the body, never in a URL or a
 * query key), so it is a mutation: its answer stays in the component that shows it and is never cached
 * under a key holding the CPF.
 */

export const lookupKeys = {
  all: ["lookups"] as const,
  cpf: () => [...lookupKeys.all, "cpf"] as const,
  record: (publicId: string) => [...lookupKeys.all, "record", publicId] as const,
};

export function postCpfLookup(input: CpfLookupInput): Promise<CpfLookupResponse> {
  return apiRequest("/api/lookups/cpf", { method: "POST", body: input });
}

export function useCpfLookup() {
  return useMutation({ mutationKey: lookupKeys.cpf(), mutationFn: postCpfLookup });
}

/** The person's records for a verification's document: the address names the verification only, the CPF stays on the server. */
export function postRecordLookup(publicId: string, input: RecordLookupInput): Promise<RecordLookupResponse> {
  return apiRequest(`/api/verifications/${encodeURIComponent(publicId)}/record`, { method: "POST", body: input });
}

/** A mutation, like a manual lookup: the records stay in the component that shows them, never in a cache. */
export function useRecordLookup(publicId: string) {
  return useMutation({
    mutationKey: lookupKeys.record(publicId),
    mutationFn: (input: RecordLookupInput) => postRecordLookup(publicId, input),
  });
}

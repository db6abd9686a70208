import { useCallback } from "react";

import type { CpfLookupResponse, RecordLookupResponse } from "@/lib/lookups/types";
import type { CpfLookupInput, RecordLookupInput } from "@/lib/lookups/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";
import { useRequest } from "@/lib/shared/api-client/use-request";

/*
 * CPF lookups in the browser. A lookup is a POST (the CPF travels in the body, never in a URL), sent as its form's
 * request (lib/shared/api-client/use-request.ts): its answer stays in the component that shows it and is never
 * cached.
 */

export function postCpfLookup(input: CpfLookupInput): Promise<CpfLookupResponse> {
  return apiRequest("/api/lookups/cpf", { method: "POST", body: input });
}

export function useCpfLookup() {
  return useRequest(postCpfLookup);
}

/** The person's records for a verification's document: the address names the verification only, the CPF stays on the server. */
export function postRecordLookup(publicId: string, input: RecordLookupInput): Promise<RecordLookupResponse> {
  return apiRequest(`/api/verifications/${encodeURIComponent(publicId)}/record`, { method: "POST", body: input });
}

/** A request, like a manual lookup: the records stay in the component that shows them, never in a cache. */
export function useRecordLookup(publicId: string) {
  return useRequest(useCallback((input: RecordLookupInput) => postRecordLookup(publicId, input), [publicId]));
}

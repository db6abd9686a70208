import { useMutation } from "@tanstack/react-query";

import type { CpfLookupResponse } from "@/lib/lookups/types";
import type { CpfLookupInput } from "@/lib/lookups/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * CPF lookups in the browser. A lookup is a POST (the CPF travels in the body, never in a URL or a
 * query key), so it is a mutation: its answer stays in the component that shows it and is never cached
 * under a key holding the CPF.
 */

export const lookupKeys = {
  all: ["lookups"] as const,
  cpf: () => [...lookupKeys.all, "cpf"] as const,
};

export function postCpfLookup(input: CpfLookupInput): Promise<CpfLookupResponse> {
  return apiRequest("/api/lookups/cpf", { method: "POST", body: input });
}

export function useCpfLookup() {
  return useMutation({ mutationKey: lookupKeys.cpf(), mutationFn: postCpfLookup });
}

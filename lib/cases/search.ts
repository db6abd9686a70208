import type { SearchResponse } from "@/lib/cases/types";
import type { SearchInput } from "@/lib/cases/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";
import { useRequest } from "@/lib/shared/api-client/use-request";

/*
 * The top bar's search (components/cases/case-search.tsx), on every signed-in page: a form's request with its state
 * (lib/shared/api-client/use-request.ts), not a react-query mutation, so the shell's first load carries none of
 * react-query (nothing is cached: each search is asked again). The CPF goes in the POST body, never in a URL or a
 * query key.
 */

function postSearch(input: SearchInput): Promise<SearchResponse> {
  return apiRequest<SearchResponse>("/api/search", { method: "POST", body: input });
}

export function useSearch() {
  return useRequest(postSearch);
}

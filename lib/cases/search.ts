import type { SearchResponse } from "@/lib/cases/types";
import type { SearchInput } from "@/lib/cases/validation";
import type { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { apiRequestWhenSent } from "@/lib/shared/api-client/api-request-when-sent";
import { useRequest } from "@/lib/shared/api-client/use-request";

/*
 * The top bar's search (components/cases/case-search.tsx), on every signed-in page: a form's request with its state
 * (lib/shared/api-client/use-request.ts), not a react-query mutation, so the shell's first load carries none of
 * react-query (nothing is cached: each search is asked again). The CPF goes in the POST body, never in a URL or a
 * query key. The API client loads with the first search: a page whose own code sends nothing need not carry it.
 */

const postSearch = (input: SearchInput) => apiRequestWhenSent<SearchResponse>("/api/search", { method: "POST", body: input });

export function useSearch() {
  return useRequest(postSearch);
}

/**
 * Whether the search had no answer: the network failed, or the API client itself could not be loaded (offline on the
 * first search, a deployment that replaced its file). Either way the member is told the same thing in their language,
 * never a browser's message about a module.
 */
export function searchUnanswered(error: Error): boolean {
  const code = (error as Partial<Pick<ApiRequestError, "code">>).code;
  return typeof code !== "string" || code === "network";
}

/**
 * The CPF-search quota a refusal names (a member who sees CPFs masked: per hour or per day), read off the refusal's
 * fields rather than its class, so the shell needs no API client to tell it.
 */
export function searchQuotaOf(error: Error): { scope: "hour" | "day"; limit: number | undefined; seconds: number } | null {
  const refusal = error as Partial<Pick<ApiRequestError, "code" | "extra" | "retryAfterSeconds">>;
  const scope = refusal.extra?.scope;
  if (refusal.code !== "rate_limited" || (scope !== "hour" && scope !== "day")) return null;
  return { scope, limit: refusal.extra?.limit, seconds: refusal.retryAfterSeconds ?? 60 };
}

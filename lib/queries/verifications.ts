import { keepPreviousData, useMutation, useQuery, useQueryClient, type Query } from "@tanstack/react-query";

import type {
  CreateVerificationResponse,
  VerificationDetailResponse,
  VerificationListResponse,
  VerificationMediaResponse,
} from "@/lib/verifications/types";
import { filtersToSearchParams, normalizeFilters, type CreateVerificationInput, type VerificationFilters } from "@/lib/validations/verifications";

/*
 * The verification review's data layer in the browser: one key factory, one fetcher per route, one hook
 * per query or mutation. Components never build keys or URLs themselves. The server page uses the same
 * keys to prefetch, so the hydrated first view is the cache entry the hooks read.
 *
 * The cache lives in memory only (app/providers.tsx). It holds what the routes answer, which never
 * includes a signed file URL: images are addressed through sealed `/api/media/...` tokens.
 */

export const verificationKeys = {
  all: ["verifications"] as const,
  lists: () => [...verificationKeys.all, "list"] as const,
  list: (filters: VerificationFilters) => [...verificationKeys.lists(), normalizeFilters(filters)] as const,
  details: () => [...verificationKeys.all, "detail"] as const,
  detail: (publicId: string) => [...verificationKeys.details(), publicId] as const,
  media: (publicId: string) => [...verificationKeys.all, "media", publicId] as const,
};

/** A failed call to the dashboard's API, in its error model (`{ error: { code, message, fields?, retryable? } }`). */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: string[] = [],
    readonly retryable = false,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; fields?: unknown; retryable?: unknown };
}

async function request<T>(input: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(input, {
      ...init,
      credentials: "same-origin",
      cache: "no-store",
      headers: { accept: "application/json", ...(init.body ? { "content-type": "application/json" } : {}) },
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiRequestError(0, "network", "The dashboard could not be reached.", [], true);
  }
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) {
    const error = (body as ErrorBody | undefined)?.error;
    const fields = Array.isArray(error?.fields) ? error.fields.filter((field): field is string => typeof field === "string") : [];
    throw new ApiRequestError(
      response.status,
      typeof error?.code === "string" ? error.code : response.status >= 500 ? "upstream_unavailable" : "internal",
      typeof error?.message === "string" ? error.message : response.statusText,
      fields,
      error?.retryable === true || response.status >= 500,
    );
  }
  return body as T;
}

export function verificationsApiUrl(filters: VerificationFilters): string {
  return `/api/verifications?${filtersToSearchParams(normalizeFilters(filters)).toString()}`;
}

export function fetchVerifications(filters: VerificationFilters, signal?: AbortSignal): Promise<VerificationListResponse> {
  return request(verificationsApiUrl(filters), { signal });
}

export function fetchVerification(publicId: string, signal?: AbortSignal): Promise<VerificationDetailResponse> {
  return request(`/api/verifications/${encodeURIComponent(publicId)}`, { signal });
}

export function fetchVerificationMedia(publicId: string, signal?: AbortSignal): Promise<VerificationMediaResponse> {
  return request(`/api/verifications/${encodeURIComponent(publicId)}/media`, { signal });
}

export function postVerification(input: CreateVerificationInput): Promise<CreateVerificationResponse> {
  return request("/api/verifications", { method: "POST", body: JSON.stringify(input) });
}

/** The list; the previous rows stay on screen while a new filter loads (`isPlaceholderData`). */
export function useVerifications(filters: VerificationFilters, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<VerificationListResponse, ApiRequestError>({
    queryKey: verificationKeys.list(filters),
    queryFn: ({ signal }) => fetchVerifications(filters, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useVerification(publicId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<VerificationDetailResponse, ApiRequestError>({
    queryKey: verificationKeys.detail(publicId),
    queryFn: ({ signal }) => fetchVerification(publicId, signal),
    enabled,
  });
}

/** Fetch fresh tokens this long before the first one expires. */
export const MEDIA_REFRESH_MARGIN_MS = 30_000;

/** Milliseconds until the media descriptors should be fetched again, or false when no token expires. */
export function mediaRefreshDelay(data: VerificationMediaResponse | undefined, now = Date.now()): number | false {
  const expiries = (data?.items ?? []).flatMap((item) => (item.available ? [Date.parse(item.expiresAt)] : [])).filter(Number.isFinite);
  if (expiries.length === 0) return false;
  return Math.max(1_000, Math.min(...expiries) - now - MEDIA_REFRESH_MARGIN_MS);
}

/**
 * Sealed image tokens live at most five minutes. While the page stays open they are fetched again
 * before the first expires; a tab that was in the background refetches on focus once they are stale.
 */
export function useVerificationMedia(publicId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<VerificationMediaResponse, ApiRequestError>({
    queryKey: verificationKeys.media(publicId),
    queryFn: ({ signal }) => fetchVerificationMedia(publicId, signal),
    enabled,
    refetchInterval: (query: Query<VerificationMediaResponse, ApiRequestError>) => mediaRefreshDelay(query.state.data),
    staleTime: (query: Query<VerificationMediaResponse, ApiRequestError>) => {
      const delay = mediaRefreshDelay(query.state.data, query.state.dataUpdatedAt);
      return delay === false ? Infinity : delay;
    },
    refetchOnWindowFocus: true,
    // Tokens are useless once the page is left: drop them instead of keeping them in memory.
    gcTime: 0,
  });
}

export function useCreateVerification() {
  const queryClient = useQueryClient();
  return useMutation<CreateVerificationResponse, ApiRequestError, CreateVerificationInput>({
    mutationFn: postVerification,
    // The new verification may belong on any list page: refetch the lists, nothing else.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: verificationKeys.lists() }),
  });
}

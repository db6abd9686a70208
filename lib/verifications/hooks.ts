import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type Query } from "@tanstack/react-query";

import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";
import { AHEAD_HEADERS, BACKGROUND_HEADERS } from "@/lib/shared/api-client/background";
import { filtersToSearchParams, type VerificationFilters } from "@/lib/upstream/model/verification-query";
import type { CropBox } from "@/lib/verifications/crop";
import { normalizeFilters, type CreateVerificationInput } from "@/lib/verifications/rules";
import type {
  CreateVerificationResponse,
  RelatedVerificationsResponse,
  VerificationListResponse,
  VerificationMediaResponse,
} from "@/lib/verifications/types";

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
  media: (publicId: string) => [...verificationKeys.all, "media", publicId] as const,
  /** The tokens of a case read ahead (the queue's next): apart, so a refused read ahead never becomes the page's error. */
  mediaAhead: (publicId: string) => [...verificationKeys.all, "media-ahead", publicId] as const,
  crop: (publicId: string) => [...verificationKeys.all, "crop", publicId] as const,
  related: (publicId: string) => [...verificationKeys.all, "related", publicId] as const,
};

export function verificationsApiUrl(filters: VerificationFilters): string {
  return `/api/verifications?${filtersToSearchParams(normalizeFilters(filters)).toString()}`;
}

export function fetchVerifications(filters: VerificationFilters, signal?: AbortSignal): Promise<VerificationListResponse> {
  return apiRequest(verificationsApiUrl(filters), { signal });
}

/**
 * `background`: a refresh of tokens already held, which is not the member's activity (BACKGROUND_HEADER).
 * `ahead`: tokens of a case the member has not opened yet (AHEAD_HEADER), recorded as read ahead.
 */
export function fetchVerificationMedia(
  publicId: string,
  signal?: AbortSignal,
  { background = false, ahead = false }: { background?: boolean; ahead?: boolean } = {},
): Promise<VerificationMediaResponse> {
  return apiRequest(`/api/verifications/${encodeURIComponent(publicId)}/media`, {
    signal,
    headers: ahead ? AHEAD_HEADERS : background ? BACKGROUND_HEADERS : undefined,
  });
}

/** Records that pictures read ahead were shown (POST …/media/shown): the view on the audit trail, when it happens. */
export function postImagesShown(publicId: string, files: string[]): Promise<{ recorded: number }> {
  return apiRequest(`/api/verifications/${encodeURIComponent(publicId)}/media/shown`, {
    method: "POST",
    body: { files },
    headers: BACKGROUND_HEADERS,
  });
}

export function postVerification(input: CreateVerificationInput): Promise<CreateVerificationResponse> {
  return apiRequest("/api/verifications", { method: "POST", body: input });
}

/** The list's query (the hook's options, also read by tests): the previous rows stay on screen while a new filter loads. */
export function verificationsQuery(filters: VerificationFilters) {
  return queryOptions<VerificationListResponse, ApiRequestError>({
    queryKey: verificationKeys.list(filters),
    queryFn: ({ signal }) => fetchVerifications(filters, signal),
    placeholderData: keepPreviousData,
  });
}

/** The list; the previous rows stay on screen while a new filter loads (`isPlaceholderData`). */
export function useVerifications(filters: VerificationFilters, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...verificationsQuery(filters), enabled });
}

/** The same person's other verifications (by the CPF's keyed hash in the dashboard's index). */
export function useRelatedVerifications(publicId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<RelatedVerificationsResponse, ApiRequestError>({
    queryKey: verificationKeys.related(publicId),
    queryFn: ({ signal }) => apiRequest(`/api/verifications/${encodeURIComponent(publicId)}/related`, { signal }),
    enabled,
  });
}

/** Fetch fresh tokens this long before the first one expires. */
export const MEDIA_REFRESH_MARGIN_MS = 30_000;

/** Never refetch the media descriptors more often than this, whatever the tokens say. */
export const MEDIA_MIN_REFRESH_MS = 5_000;

/**
 * Milliseconds until the media descriptors should be fetched again, or false when no token expires.
 * Counted from when the answer arrived (`receivedAt`) with the token lives in seconds, not from the
 * absolute expiry: a browser clock that is off from the server's then changes nothing.
 */
export function mediaRefreshDelay(data: VerificationMediaResponse | undefined, receivedAt: number, now = Date.now()): number | false {
  const lives = (data?.items ?? []).flatMap((item) => (item.available ? [item.expiresInSeconds * 1000] : [])).filter(Number.isFinite);
  if (lives.length === 0) return false;
  return Math.max(MEDIA_MIN_REFRESH_MS, receivedAt + Math.min(...lives) - MEDIA_REFRESH_MARGIN_MS - now);
}

/** When the tokens of a media answer are due again (the refetch interval and the stale time of its queries). */
const mediaTiming = {
  refetchInterval: (query: Query<VerificationMediaResponse, ApiRequestError>) =>
    mediaRefreshDelay(query.state.data, query.state.dataUpdatedAt),
  staleTime: (query: Query<VerificationMediaResponse, ApiRequestError>) => {
    const delay = mediaRefreshDelay(query.state.data, query.state.dataUpdatedAt, query.state.dataUpdatedAt);
    return delay === false ? Infinity : delay;
  },
  // Tokens are useless once the page is left: drop them instead of keeping them in memory.
  gcTime: 0,
};

/**
 * Sealed image tokens live at most five minutes. While the page stays open they are fetched again
 * before the first expires; a tab that was in the background refetches on focus once they are stale. Those
 * refreshes (tokens already held) are background requests; the first fetch is the page being opened, unless
 * the tokens were read ahead (useMediaAhead): the page then starts from them, as old as they are.
 */
export function useVerificationMedia(publicId: string, { enabled = true }: { enabled?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useQuery<VerificationMediaResponse, ApiRequestError>({
    queryKey: verificationKeys.media(publicId),
    queryFn: ({ signal }) =>
      fetchVerificationMedia(publicId, signal, {
        background: queryClient.getQueryState(verificationKeys.media(publicId))?.data !== undefined,
      }),
    initialData: () => queryClient.getQueryData<VerificationMediaResponse>(verificationKeys.mediaAhead(publicId)),
    initialDataUpdatedAt: () => queryClient.getQueryState(verificationKeys.mediaAhead(publicId))?.dataUpdatedAt,
    enabled,
    ...mediaTiming,
    refetchOnWindowFocus: true,
  });
}

/**
 * The tokens of a case the member is about to open (the queue's next), read ahead and kept fresh the same way
 * while the current case is worked. Only for a member holding `media.read` (`enabled`).
 */
export function useVerificationMediaAhead(publicId: string | null, { enabled }: { enabled: boolean }) {
  return useQuery<VerificationMediaResponse, ApiRequestError>({
    queryKey: verificationKeys.mediaAhead(publicId ?? ""),
    queryFn: ({ signal }) => fetchVerificationMedia(publicId ?? "", signal, { ahead: true }),
    enabled: enabled && publicId !== null,
    ...mediaTiming,
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

/** The document's portrait crop (null: none yet), shared by everyone who sees the verification's images. */
export interface DocumentCropResponse {
  crop: { box: CropBox; setAt: string } | null;
}

const cropUrl = (publicId: string) => `/api/verifications/${encodeURIComponent(publicId)}/crop`;

export function useDocumentCrop(publicId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<DocumentCropResponse, ApiRequestError>({
    queryKey: verificationKeys.crop(publicId),
    queryFn: ({ signal }) => apiRequest<DocumentCropResponse>(cropUrl(publicId), { signal }),
    enabled,
  });
}

/** Sets the crop (a box) or clears it (null); the cached crop follows the answer. */
export function useSaveDocumentCrop(publicId: string) {
  const queryClient = useQueryClient();
  return useMutation<DocumentCropResponse, ApiRequestError, CropBox | null>({
    mutationFn: async (box) =>
      box
        ? apiRequest<DocumentCropResponse>(cropUrl(publicId), { method: "PUT", body: box })
        : (await apiRequest<{ cleared: boolean }>(cropUrl(publicId), { method: "DELETE" }), { crop: null }),
    onSuccess: (data) => queryClient.setQueryData(verificationKeys.crop(publicId), data),
  });
}

/*
 * What the dashboard's verification routes answer (GET /api/verifications, /api/verifications/[publicId],
 * /api/verifications/[publicId]/media, POST /api/verifications). Shared: the server page prefetches the
 * same shapes into react-query that the route handlers return, and the client components read them.
 * No server imports here.
 */
import type { CreatedVerification, Pagination, Verification } from "@/lib/upstream/model/verification";

export type { Pagination, Verification };

export interface VerificationListResponse {
  items: Verification[];
  pagination: Pagination;
  /**
   * false when the service refused the page parameter (its name is a configured ASSUMPTION, CORE_PAGE_PARAM,
   * docs/assumptions.md#core-page-param): the rows are the service's first page and the UI says paging is not
   * available.
   */
  pagingAvailable: boolean;
  /** What the dashboard knows beside the service's answer, by public id (lib/verifications/server/enrich.ts); absent ids: nothing known. */
  enrichment?: Record<string, ListEnrichment>;
}

export interface ListEnrichment {
  /** The caller's reference, known when the verification was created here. */
  refId: string | null;
  /** ISO 8601: when its review case opened (case work). */
  caseOpenedAt: string | null;
  caseOwner: string | null;
}

export interface VerificationDetailResponse {
  verification: Verification;
}

/** Why a file the viewer expected is not there. */
export type MediaMissingReason =
  /** Contract: `selfie` is null when liveness was not approved. */
  | "liveness_not_approved"
  /** Any other null file. */
  | "not_provided"
  /** The service names a type the dashboard does not display (only raster image types are). */
  | "unsupported_type";

export type MediaItem =
  | {
      key: string;
      available: true;
      /** Dashboard address of the image: `/api/media/<sealed token>`. Never the service's signed URL. */
      src: string;
      mediaType: string;
      /** ISO 8601: after this the token is refused and a fresh one must be fetched. */
      expiresAt: string;
      /** The same, as seconds from the answer: the browser schedules refreshes with it, so its own clock's skew does not matter. */
      expiresInSeconds: number;
    }
  | { key: string; available: false; reason: MediaMissingReason };

export interface VerificationMediaResponse {
  publicId: string;
  items: MediaItem[];
}

export interface CreateVerificationResponse {
  created: Pick<CreatedVerification, "publicId" | "status" | "refId" | "createdAt" | "expiresAt" | "replayed">;
}

/** Another verification of the same person (GET /api/verifications/{publicId}/related). */
export interface RelatedVerification {
  publicId: string;
  createdAt?: string;
  /** Its case's status upstream when it has a case, else as the service answered (at most 10 are read). */
  status?: string;
  /** The case's recommendation and its state, when one was recorded. */
  outcome?: { recommendation: "approve" | "reprove" | "escalate"; state: string | null };
  caseStatus?: "open" | "closed";
  /** Found by the same CPF (its keyed hash): the same document. */
  sameDocument: true;
}

export interface RelatedVerificationsResponse {
  related: RelatedVerification[];
  /**
   * `cpf_hash`: matched by the CPF's keyed hash in the search index; `unknown`: the index does not know this
   * verification's CPF, so nothing can be matched (the page says what the index learns from).
   */
  basis: "cpf_hash" | "unknown";
}

"use client";

import type { ReactNode } from "react";

import type { Viewer } from "@/components/cases/viewer";
import { ApiErrorState } from "@/components/ui/error-state";
import { hasPermission } from "@/lib/auth/has-permission";
import { CASES_PARAM } from "@/lib/cases/queue-context";
import type { ServerError } from "@/lib/shared/api-client/server-error";
import { useServerError } from "@/lib/shared/api-client/server-error-seed";
import { useVerification, verificationKeys } from "@/lib/verifications/hooks";

import { FACE_KEYS, FaceComparison } from "./face-comparison";
import { MediaNotPermitted } from "./media-not-permitted";
import { MediaViewer } from "./media-viewer";
import { SamePersonPanel } from "./same-person-panel";
import { VerificationDetail } from "./verification-detail";
import { VerificationDetailSkeleton } from "./verification-detail-skeleton";
import { VerificationNeighbours } from "./verification-neighbours";
import { VerificationNotFound } from "./verification-not-found";

/** The page's own list and queue context, for links to another verification that keep them. */
function contextParams(listQuery: string, queueContext: string): string {
  const search = new URLSearchParams();
  if (listQuery) search.set("list", listQuery);
  if (queueContext) search.set(CASES_PARAM, queueContext);
  return search.toString();
}

/**
 * The evidence column of a verification's page: the verification, its neighbours in the list, the same person's
 * other verifications and the images (for a member with media.read), or why it cannot be shown.
 * `listQuery` and `queueContext` are where the analyst came from, kept by the links to other verifications; `back`
 * is the way back to them, on the header's line (or above the page's state while there is no verification to show).
 */
export function VerificationEvidence({
  publicId,
  viewer,
  serverError,
  listQuery,
  queueContext,
  back,
}: {
  publicId: string;
  viewer: Viewer;
  serverError: ServerError | null;
  listQuery: string;
  queueContext: string;
  back: ReactNode;
}) {
  // The server page's failed fetch (page.tsx): its error state, and no fetch until the retry.
  useServerError(verificationKeys.detail(publicId), serverError);
  const detail = useVerification(publicId);

  if (detail.data) {
    const { verification } = detail.data;
    const similarity = verification.steps.find((step) => step.name === "facematch")?.similarity;
    return (
      <VerificationDetail
        verification={verification}
        canLookUp={hasPermission(viewer, "lookups.run")}
        navigation={
          <>
            {back}
            <VerificationNeighbours publicId={publicId} listQuery={listQuery} />
          </>
        }
        related={<SamePersonPanel publicId={publicId} context={contextParams(listQuery, queueContext)} />}
        media={
          // Without media.read no token is asked for: the page says why there are no images.
          hasPermission(viewer, "media.read") ? (
            <>
              <FaceComparison publicId={publicId} similarity={similarity} canCrop={hasPermission(viewer, "verifications.crop")} />
              <MediaViewer publicId={publicId} exclude={FACE_KEYS} />
            </>
          ) : (
            <MediaNotPermitted />
          )
        }
      />
    );
  }
  return (
    <div className="space-y-3">
      <p className="text-sm">{back}</p>
      {!detail.isError ? (
        <VerificationDetailSkeleton />
      ) : detail.error.code === "not_found" ? (
        <VerificationNotFound />
      ) : (
        <ApiErrorState error={detail.error} onRetry={() => void detail.refetch()} retrying={detail.isFetching} />
      )}
    </div>
  );
}

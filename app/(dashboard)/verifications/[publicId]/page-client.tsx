"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useSearchParams } from "next/navigation";

import { CaseWork, type Viewer } from "@/components/cases/case-work";
import { ApiErrorState } from "@/components/verifications/error-state";
import { FACE_KEYS, FaceComparison } from "@/components/verifications/face-comparison";
import { MediaNotPermitted } from "@/components/verifications/media-not-permitted";
import { MediaViewer } from "@/components/verifications/media-viewer";
import { VerificationDetail } from "@/components/verifications/verification-detail";
import { VerificationDetailSkeleton } from "@/components/verifications/verification-detail-skeleton";
import { VerificationEventHistory } from "@/components/verifications/verification-event-history";
import { backHref, VerificationNeighbours } from "@/components/verifications/verification-neighbours";
import { VerificationNotFound } from "@/components/verifications/verification-not-found";
import { hasPermission } from "@/lib/auth/permissions";
import { useServerError, type ServerError } from "@/lib/shared/api-client/server-error";
import { useVerification, verificationKeys } from "@/lib/verifications/queries";

export function VerificationPageClient({
  publicId,
  viewer,
  serverError,
}: {
  publicId: string;
  viewer: Viewer;
  serverError: ServerError | null;
}) {
  const t = useTranslations("verifications.detail");
  // The server page's failed fetch (page.tsx): its error state, and no fetch until the retry.
  useServerError(verificationKeys.detail(publicId), serverError);
  const detail = useVerification(publicId);
  // The list the analyst came from (filters and sort), so the way back and previous/next keep them.
  const listQuery = useSearchParams().get("list") ?? "";

  let body: React.ReactNode;
  if (detail.data) {
    const { verification } = detail.data;
    const similarity = verification.steps.find((step) => step.name === "facematch")?.similarity;
    body = (
      <VerificationDetail
        verification={verification}
        navigation={<VerificationNeighbours publicId={publicId} listQuery={listQuery} />}
        media={
          // Without media.read no token is asked for: the page says why there are no images.
          hasPermission(viewer, "media.read") ? (
            <>
              <FaceComparison publicId={publicId} similarity={similarity} />
              <MediaViewer publicId={publicId} exclude={FACE_KEYS} />
            </>
          ) : (
            <MediaNotPermitted />
          )
        }
      />
    );
  } else if (detail.isError) {
    body =
      detail.error.code === "not_found" ? (
        <VerificationNotFound />
      ) : (
        <ApiErrorState error={detail.error} onRetry={() => void detail.refetch()} retrying={detail.isFetching} />
      );
  } else {
    body = <VerificationDetailSkeleton />;
  }

  return (
    <div className="space-y-4">
      <Link href={backHref(listQuery)} className="text-sm font-medium text-brand-800 underline underline-offset-2">
        ← {t("back")}
      </Link>
      {body}
      <VerificationEventHistory publicId={publicId} />
      <CaseWork publicId={publicId} viewer={viewer} />
    </div>
  );
}

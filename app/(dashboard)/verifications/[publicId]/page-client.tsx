"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useSearchParams } from "next/navigation";

import { CaseHistory, CaseWork, type Viewer } from "@/components/cases/case-work";
import { CaseVerificationPart } from "@/components/verifications/case-verification-part";
import { ApiErrorState } from "@/components/verifications/error-state";
import { FACE_KEYS, FaceComparison } from "@/components/verifications/face-comparison";
import { MediaNotPermitted } from "@/components/verifications/media-not-permitted";
import { MediaViewer } from "@/components/verifications/media-viewer";
import { SamePersonPanel } from "@/components/verifications/same-person-panel";
import { VerificationDetail } from "@/components/verifications/verification-detail";
import { VerificationDetailSkeleton } from "@/components/verifications/verification-detail-skeleton";
import { VerificationEventHistory } from "@/components/verifications/verification-event-history";
import { backHref, VerificationNeighbours } from "@/components/verifications/verification-neighbours";
import { VerificationNotFound } from "@/components/verifications/verification-not-found";
import { hasPermission } from "@/lib/auth/permissions";
import { CASES_PARAM, cleanQueueContext, queueHref } from "@/lib/cases/queue-context";
import { useServerError, type ServerError } from "@/lib/shared/api-client/server-error";
import { useVerification, verificationKeys } from "@/lib/verifications/hooks";

/** The page's own list and queue context, for links to another verification that keep them. */
function contextParams(listQuery: string, queueContext: string): string {
  const search = new URLSearchParams();
  if (listQuery) search.set("list", listQuery);
  if (queueContext) search.set(CASES_PARAM, queueContext);
  return search.toString();
}

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
  const search = useSearchParams();
  const listQuery = search.get("list") ?? "";
  // The case queue the analyst came from (tab, filters, sort), so next, previous and back keep it.
  const queueContext = cleanQueueContext(search.get(CASES_PARAM) ?? "");

  let body: React.ReactNode;
  if (detail.data) {
    const { verification } = detail.data;
    const similarity = verification.steps.find((step) => step.name === "facematch")?.similarity;
    body = (
      <VerificationDetail
        verification={verification}
        navigation={<VerificationNeighbours publicId={publicId} listQuery={listQuery} />}
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

  // The evidence on the left, the decision panel on the right, kept on screen while the evidence scrolls
  // (1440×900: everything needed to decide without scrolling); on a phone the panel follows the evidence,
  // one tap away through the link at the top.
  // The way back heads the evidence column, so the panel starts at the top of the page.
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_26rem] lg:items-start">
      <div className="min-w-0 space-y-4">
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <Link
            href={queueContext ? queueHref(queueContext) : backHref(listQuery)}
            className="font-medium text-brand-800 underline underline-offset-2"
          >
            ← {t("back")}
          </Link>
          <a href="#decision-panel" className="font-medium text-brand-800 underline underline-offset-2 lg:hidden">
            {t("toDecision")}
          </a>
        </div>
        {body}
        <CaseHistory publicId={publicId} context={queueContext} />
        <VerificationEventHistory publicId={publicId} />
      </div>
      <aside
        id="decision-panel"
        aria-label={t("decisionPanel")}
        className="min-w-0 lg:sticky lg:top-2 lg:max-h-[calc(100vh-1rem)] lg:overflow-y-auto"
        data-testid="decision-panel"
      >
        <CaseWork
          publicId={publicId}
          viewer={viewer}
          context={queueContext}
          verificationPart={(caseDetail) => <CaseVerificationPart detail={caseDetail} viewer={viewer} />}
        />
      </aside>
    </div>
  );
}

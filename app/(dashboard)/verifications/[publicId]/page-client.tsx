"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";

import { CaseWork, type Viewer } from "@/components/cases/case-work";
import { ApiErrorState } from "@/components/verifications/error-state";
import { MediaViewer } from "@/components/verifications/media-viewer";
import { VerificationDetail } from "@/components/verifications/verification-detail";
import { VerificationDetailSkeleton } from "@/components/verifications/verification-detail-skeleton";
import { VerificationNotFound } from "@/components/verifications/verification-not-found";
import { useVerification } from "@/lib/queries/verifications";

export function VerificationPageClient({ publicId, viewer }: { publicId: string; viewer: Viewer }) {
  const t = useTranslations("verifications.detail");
  const detail = useVerification(publicId);

  let body: React.ReactNode;
  if (detail.data) {
    body = <VerificationDetail verification={detail.data.verification} media={<MediaViewer publicId={publicId} />} />;
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
      <Link href="/verifications" className="text-sm font-medium text-brand-800 underline underline-offset-2">
        ← {t("back")}
      </Link>
      {body}
      <CaseWork publicId={publicId} viewer={viewer} />
    </div>
  );
}

"use client";

import { useTranslations } from "next-intl";

/** The detail page's shape while the client fetches it (the retry after a first view the server could not fetch): evidence first. */
export function VerificationDetailSkeleton() {
  const t = useTranslations("common");
  return (
    <div className="space-y-3" aria-busy="true">
      <p role="status" aria-live="polite" className="sr-only">
        {t("loading")}
      </p>
      <span className="block h-7 w-2/3 animate-pulse rounded bg-slate-200" />
      <span className="block h-5 w-1/2 animate-pulse rounded bg-slate-100" />
      <span className="block h-9 animate-pulse rounded-lg bg-slate-100" />
      <div className="grid grid-cols-2 gap-3">
        <span className="block aspect-square animate-pulse rounded-lg bg-slate-100 lg:max-h-[max(12rem,calc(100dvh-27rem))]" />
        <span className="block aspect-square animate-pulse rounded-lg bg-slate-100 lg:max-h-[max(12rem,calc(100dvh-27rem))]" />
      </div>
    </div>
  );
}

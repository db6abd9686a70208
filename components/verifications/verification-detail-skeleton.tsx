"use client";

import { useTranslations } from "next-intl";

/** The detail page's shape while the client fetches it (the retry after a first view the server could not fetch). */
export function VerificationDetailSkeleton() {
  const t = useTranslations("common");
  return (
    <div className="space-y-6" aria-busy="true">
      <p role="status" aria-live="polite" className="sr-only">
        {t("loading")}
      </p>
      <span className="block h-8 w-2/3 animate-pulse rounded bg-slate-200" />
      <span className="block h-20 animate-pulse rounded-lg bg-slate-100" />
      <div className="grid gap-6 lg:grid-cols-2">
        <span className="block h-48 animate-pulse rounded-lg bg-slate-100" />
        <span className="block h-48 animate-pulse rounded-lg bg-slate-100" />
      </div>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {[0, 1, 2].map((index) => (
          <span key={index} className="block h-56 animate-pulse rounded-lg bg-slate-100" />
        ))}
      </div>
    </div>
  );
}

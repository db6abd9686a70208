"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { Pagination } from "@/lib/upstream/model/verification";

/** Paging from the service's `pagination` object (page, per_page, total). */
export function VerificationPagination({
  pagination,
  available,
  onPage,
}: {
  pagination: Pagination;
  available: boolean;
  onPage: (page: number) => void;
}) {
  const t = useTranslations("verifications.pagination");
  if (!available) {
    return (
      <Alert tone="info" title={t("unavailableTitle")}>
        {t("unavailableBody", { perPage: pagination.perPage })}
      </Alert>
    );
  }
  const pages = Math.max(1, Math.ceil(pagination.total / Math.max(1, pagination.perPage)));
  const page = Math.min(Math.max(1, pagination.page), pages);
  return (
    <nav aria-label={t("label")} className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-700">{t("summary", { page, pages, total: pagination.total })}</p>
      <div className="flex gap-2">
        <PageButton label={t("previous")} disabled={page <= 1} onClick={() => onPage(page - 1)} />
        <PageButton label={t("next")} disabled={page >= pages} onClick={() => onPage(page + 1)} />
      </div>
    </nav>
  );
}

/**
 * `aria-disabled` rather than `disabled`: a button that becomes disabled under the keyboard focus (the
 * last page reached with "next") would drop the focus to the page's start.
 */
function PageButton({ label, disabled, onClick }: { label: string; disabled: boolean; onClick: () => void }) {
  return (
    <Button
      variant="secondary"
      aria-disabled={disabled || undefined}
      className={disabled ? "cursor-not-allowed text-slate-400 hover:bg-white" : ""}
      onClick={() => {
        if (!disabled) onClick();
      }}
    >
      {label}
    </Button>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useId, type ReactNode } from "react";

import { Spinner } from "@/components/ui/spinner";
import type { ServerError } from "@/lib/shared/api-client/server-error";

import { CreateVerificationDialog } from "./create-verification-dialog";
import { LiveChangesNotice } from "./live-changes-notice";
import { useVerificationList } from "./use-verification-list";
import { VerificationExport } from "./verification-export";
import { VerificationFilters } from "./verification-filters";
import { VerificationListBody } from "./verification-list-body";
import { SortNote } from "./verification-table";

/**
 * The verifications list: title and buttons, filters, progress, and the rows (./use-verification-list.ts keeps
 * the filters in the URL). `actions` (saving the view) sit beside the export while the filters are valid.
 */
export function VerificationList({
  maxPerPage,
  serverError,
  actions,
}: {
  maxPerPage: number;
  serverError: ServerError | null;
  actions?: ReactNode;
}) {
  const t = useTranslations("verifications");
  const state = useVerificationList(serverError);
  const { parsed, list, filters } = state;
  const data = list.data;
  const sortNoteId = useId();
  const showsRows = parsed.ok && !list.isError && !!data && data.items.length > 0;

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{t("list.title")}</h1>
          <p className="mt-1 text-sm text-slate-600">{t("list.intro")}</p>
        </div>
        <div className="flex flex-wrap items-start gap-2">
          {parsed.ok ? <VerificationExport filters={filters} /> : null}
          {parsed.ok ? actions : null}
          <CreateVerificationDialog />
        </div>
      </div>
      <VerificationFilters filters={filters} maxPerPage={maxPerPage} onApply={state.navigate} />
      {/* Always present and one line high on a desktop: showing progress never moves the table. The
          sort's "this page only" note sits here, just above the header, where it costs the list no row. */}
      <div className="flex min-h-5 flex-wrap items-center gap-x-3 gap-y-1">
        <div className={`relative h-1 w-32 overflow-hidden rounded-full ${list.isFetching ? "bg-slate-200" : ""}`} aria-hidden="true">
          {list.isFetching ? <div className="absolute inset-0 animate-pulse rounded-full bg-brand-600" /> : null}
        </div>
        <p role="status" aria-live="polite" className="flex items-center gap-2 text-xs text-slate-700">
          {list.isFetching ? (
            <>
              <Spinner className="h-3 w-3 text-brand-700" />
              {t("list.updating")}
            </>
          ) : data && !list.isError ? (
            t("list.updated", { count: data.pagination.total })
          ) : null}
        </p>
        {showsRows ? <SortNote id={sortNoteId} /> : null}
      </div>
      <LiveChangesNotice />
      <VerificationListBody state={state} sortNoteId={sortNoteId} />
    </section>
  );
}

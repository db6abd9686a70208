"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { saveBlob } from "@/lib/queries/csv-download";
import { useVerificationsExport } from "@/lib/queries/verifications-export";
import type { VerificationFilters } from "@/lib/validations/verifications";

/*
 * "Export CSV" of the list under the filters on screen (every page, not only the one shown). Progress is
 * rows received against the total the server announced; the file is saved when the stream ends. Screen
 * readers hear the start and the end (a polite live region), not every chunk.
 */

export function VerificationExport({ filters }: { filters: VerificationFilters }) {
  const t = useTranslations("verifications.export");
  const format = useFormatter();
  const exporter = useVerificationsExport();
  const [cancelled, setCancelled] = useState(false);
  const { data, isSuccess } = exporter;
  const { rows, total } = exporter.progress;

  useEffect(() => {
    if (isSuccess && data) saveBlob(data.blob, data.filename);
  }, [isSuccess, data]);

  const aborted = exporter.error instanceof DOMException && exporter.error.name === "AbortError";
  const number = (value: number) => format.number(value);

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1" data-verification-export>
      <Button
        variant="secondary"
        pending={exporter.isPending}
        aria-describedby="verification-export-hint"
        onClick={() => {
          setCancelled(false);
          exporter.mutate(filters);
        }}
      >
        {t("button")}
      </Button>
      <span id="verification-export-hint" className="sr-only">
        {t("hint")}
      </span>
      {exporter.isPending ? (
        <>
          <progress
            aria-label={t("progressLabel")}
            max={total && total > 0 ? total : undefined}
            value={total && total > 0 ? rows : undefined}
            className="h-2 w-32 overflow-hidden rounded-full accent-brand-700"
          />
          <span className="text-sm text-slate-800 tabular-nums">
            {total === undefined ? t("starting") : t("progress", { rows: number(rows), total: number(total) })}
          </span>
          <Button
            variant="ghost"
            onClick={() => {
              setCancelled(true);
              exporter.cancel();
            }}
          >
            {t("cancel")}
          </Button>
        </>
      ) : null}
      <p role="status" aria-live="polite" className="text-sm text-slate-800">
        {exporter.isSuccess && data ? t("done", { rows: number(data.rows) }) : null}
        {(cancelled || aborted) && !exporter.isPending && !exporter.isSuccess ? t("cancelled") : null}
      </p>
      {exporter.isError && !aborted && !cancelled ? (
        <Alert tone="error" title={t("failedTitle")}>
          {exporter.error.message}
        </Alert>
      ) : null}
    </div>
  );
}

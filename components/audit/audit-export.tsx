"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { AuditFilters } from "@/lib/audit-trail/filters";
import { useAuditExport } from "@/lib/queries/audit-export";
import { saveBlob } from "@/lib/queries/csv-download";

/*
 * "Export CSV" for the filters on screen. The file is read through fetch + a stream reader, so the page
 * shows rows and bytes as they arrive (the server streams it in batches), and can stop it; when it ends,
 * the browser saves it under the name the server gave.
 *
 * Screen readers hear the start and the end (a polite live region), not every chunk.
 */

export function AuditExport({ filters, cpf, disabled = false }: { filters: AuditFilters; cpf: string | null; disabled?: boolean }) {
  const t = useTranslations("audit.export");
  const format = useFormatter();
  const exporter = useAuditExport();
  const [cancelled, setCancelled] = useState(false);
  const { data, isSuccess } = exporter;

  useEffect(() => {
    if (isSuccess && data) saveBlob(data.blob, data.filename);
  }, [isSuccess, data]);

  const size = (bytes: number) =>
    bytes < 1024 * 1024
      ? format.number(bytes / 1024, { style: "unit", unit: "kilobyte", maximumFractionDigits: 1 })
      : format.number(bytes / (1024 * 1024), { style: "unit", unit: "megabyte", maximumFractionDigits: 1 });

  const aborted = exporter.error instanceof DOMException && exporter.error.name === "AbortError";

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          pending={exporter.isPending}
          disabled={disabled}
          aria-describedby="audit-export-hint"
          onClick={() => {
            setCancelled(false);
            exporter.mutate({ filters, cpf });
          }}
        >
          {t("button")}
        </Button>
        {exporter.isPending ? (
          <Button
            variant="ghost"
            onClick={() => {
              setCancelled(true);
              exporter.cancel();
            }}
          >
            {t("cancel")}
          </Button>
        ) : null}
      </div>
      <p id="audit-export-hint" className="text-xs text-slate-600">
        {t("hint")}
      </p>
      {exporter.isPending ? (
        <div className="flex flex-wrap items-center gap-3" data-testid="audit-export-progress">
          <progress aria-label={t("progressLabel")} className="h-2 w-40 overflow-hidden rounded-full accent-brand-700" />
          <span className="text-sm text-slate-800 tabular-nums">
            {t("downloading", { rows: exporter.progress.rows, size: size(exporter.progress.bytes) })}
          </span>
        </div>
      ) : null}
      <p role="status" aria-live="polite" className="text-sm text-slate-800">
        {exporter.isSuccess && data ? t("done", { rows: data.rows, size: size(data.bytes) }) : null}
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

"use client";

import { useEffect, useId, useState } from "react";

import { saveBlob, type CsvDownload, type ExportProgress } from "@/lib/shared/api-client/csv-download";
import type { CsvExporter } from "@/lib/shared/api-client/csv-export";

import { Alert } from "./alert";
import { Button } from "./button";

/*
 * "Export CSV" of a streamed export (the verification list's, the audit log's): the button, then while the
 * file arrives a progress bar (measured against the total when the server announced one), a line saying
 * how far it is and a way to stop; when it ends, the browser saves it under the name the server gave.
 * Screen readers hear the start and the end (a polite live region), not every chunk.
 */

type ExportMessage = "button" | "hint" | "progressLabel" | "cancel" | "cancelled" | "failedTitle";

export function CsvExport<Input>({
  exporter,
  input,
  t,
  progressText,
  doneText,
  compact = false,
  disabled = false,
}: {
  exporter: CsvExporter<Input>;
  /** What to export (the filters on screen). */
  input: Input;
  /** The feature's export messages. */
  t: (key: ExportMessage) => string;
  progressText: (progress: ExportProgress) => string;
  doneText: (download: CsvDownload) => string;
  /** One row, the hint for screen readers only (a toolbar), instead of the hint shown under the button. */
  compact?: boolean;
  disabled?: boolean;
}) {
  const hintId = useId();
  const [cancelled, setCancelled] = useState(false);
  const { data, isSuccess } = exporter;
  const { rows, total } = exporter.progress;
  const measured = total !== undefined && total > 0;

  useEffect(() => {
    if (isSuccess && data) saveBlob(data.blob, data.filename);
  }, [isSuccess, data]);

  const aborted = exporter.error instanceof DOMException && exporter.error.name === "AbortError";

  return (
    <div className={compact ? "flex flex-wrap items-center gap-x-3 gap-y-1" : "space-y-2"}>
      <Button
        variant="secondary"
        pending={exporter.isPending}
        disabled={disabled}
        aria-describedby={hintId}
        onClick={() => {
          setCancelled(false);
          exporter.mutate(input);
        }}
      >
        {t("button")}
      </Button>
      <p id={hintId} className={compact ? "sr-only" : "text-xs text-slate-600"}>
        {t("hint")}
      </p>
      {exporter.isPending ? (
        <div className="flex flex-wrap items-center gap-3">
          <progress
            aria-label={t("progressLabel")}
            max={measured ? total : undefined}
            value={measured ? rows : undefined}
            className="h-2 w-32 overflow-hidden rounded-full accent-brand-700"
          />
          <span className="text-sm text-slate-800 tabular-nums">{progressText(exporter.progress)}</span>
          <Button
            variant="ghost"
            onClick={() => {
              setCancelled(true);
              exporter.cancel();
            }}
          >
            {t("cancel")}
          </Button>
        </div>
      ) : null}
      <p role="status" aria-live="polite" className="text-sm text-slate-800">
        {isSuccess && data ? doneText(data) : null}
        {(cancelled || aborted) && !exporter.isPending && !isSuccess ? t("cancelled") : null}
      </p>
      {exporter.error && !aborted && !cancelled ? (
        <Alert tone="error" title={t("failedTitle")}>
          {exporter.error.message}
        </Alert>
      ) : null}
    </div>
  );
}

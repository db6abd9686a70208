"use client";

import { useFormatter, useTranslations } from "next-intl";

import { CsvExport } from "@/components/ui/csv-export";
import { withQueryProvider } from "@/components/ui/query-provider";
import { useAuditExport } from "@/lib/audit-trail/export-hooks";
import type { AuditFilters } from "@/lib/audit-trail/filters";

/*
 * "Export CSV" for the filters on screen (and the CPF searched). The server streams the file in batches
 * without announcing a total, so progress is rows and bytes received. Loaded after the page, with react-query
 * (./audit-log-controls.tsx, AuditExportIsland).
 */

export default withQueryProvider(AuditExport);

function AuditExport({ filters, cpf, disabled = false }: { filters: AuditFilters; cpf: string | null; disabled?: boolean }) {
  const t = useTranslations("audit.export");
  const format = useFormatter();
  const exporter = useAuditExport();

  const size = (bytes: number) =>
    bytes < 1024 * 1024
      ? format.number(bytes / 1024, { style: "unit", unit: "kilobyte", maximumFractionDigits: 1 })
      : format.number(bytes / (1024 * 1024), { style: "unit", unit: "megabyte", maximumFractionDigits: 1 });

  return (
    <CsvExport
      exporter={exporter}
      input={{ filters, cpf }}
      t={t}
      disabled={disabled}
      progressText={(progress) => t("downloading", { rows: progress.rows, size: size(progress.bytes) })}
      doneText={(download) => t("done", { rows: download.rows, size: size(download.bytes) })}
    />
  );
}

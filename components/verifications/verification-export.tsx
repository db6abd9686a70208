"use client";

import { useFormatter, useTranslations } from "next-intl";

import { CsvExport } from "@/components/ui/csv-export";
import { withQueryProvider } from "@/components/ui/query-provider";
import type { VerificationFilters } from "@/lib/upstream/model/verification-query";
import { useVerificationsExport } from "@/lib/verifications/export-hooks";

/*
 * "Export CSV" of the list under the filters on screen (every page, not only the one shown), in the list's
 * toolbar. Progress is rows received against the total the server announced. Loaded after the page, with react-query
 * (./list-controls.tsx, ExportIsland).
 */

export default withQueryProvider(VerificationExport);

function VerificationExport({ filters }: { filters: VerificationFilters }) {
  const t = useTranslations("verifications.export");
  const format = useFormatter();
  const exporter = useVerificationsExport();
  const number = (value: number) => format.number(value);

  return (
    <CsvExport
      exporter={exporter}
      input={filters}
      t={t}
      compact
      progressText={({ rows, total }) =>
        total === undefined ? t("starting") : t("progress", { rows: number(rows), total: number(total) })
      }
      doneText={(download) => t("done", { rows: number(download.rows) })}
    />
  );
}

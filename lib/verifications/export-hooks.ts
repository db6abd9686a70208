import { downloadCsv } from "@/lib/shared/api-client/csv-download";
import { useCsvExport } from "@/lib/shared/api-client/csv-export";
import { filtersToSearchParams, type VerificationFilters } from "@/lib/upstream/model/verification-query";
import { normalizeFilters } from "@/lib/verifications/rules";

// The verification list's CSV export hook (browser only).

export function verificationsExportUrl(filters: VerificationFilters): string {
  // The export reads every page itself: the list's page and page size are not part of it.
  const { page: _page, per_page: _perPage, ...rest } = normalizeFilters(filters);
  const query = filtersToSearchParams(rest).toString();
  return `/api/verifications/export${query ? `?${query}` : ""}`;
}

export function useVerificationsExport() {
  return useCsvExport((filters: VerificationFilters, options) =>
    downloadCsv(verificationsExportUrl(filters), { ...options, fallbackName: "verifications.csv" }),
  );
}

import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";

import { filtersToSearchParams, normalizeFilters, type VerificationFilters } from "@/lib/validations/verifications";

import { downloadCsv, type ExportProgress } from "./csv-download";

// The verification list's CSV export hook (browser only).

export function verificationsExportUrl(filters: VerificationFilters): string {
  // The export reads every page itself: the list's page and page size are not part of it.
  const { page: _page, per_page: _perPage, ...rest } = normalizeFilters(filters);
  const query = filtersToSearchParams(rest).toString();
  return `/api/verifications/export${query ? `?${query}` : ""}`;
}

export function useVerificationsExport() {
  const [progress, setProgress] = useState<ExportProgress>({ bytes: 0, rows: 0 });
  const controller = useRef<AbortController | null>(null);
  const mutation = useMutation({
    mutationFn: async (filters: VerificationFilters) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setProgress({ bytes: 0, rows: 0 });
      try {
        return await downloadCsv(verificationsExportUrl(filters), {
          signal: abort.signal,
          onProgress: setProgress,
          fallbackName: "verifications.csv",
        });
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
  });
  return { ...mutation, progress, cancel: () => controller.current?.abort() };
}

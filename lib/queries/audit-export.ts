import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";

import type { AuditFilters } from "@/lib/audit-trail/filters";

import { downloadAuditCsv, type ExportProgress } from "./audit";

// The CSV export's hook (browser only; apart from ./audit.ts, whose key factory the server page imports).

/** The export as a mutation with live progress and a way to stop it. */
export function useAuditExport() {
  const [progress, setProgress] = useState<ExportProgress>({ bytes: 0, rows: 0 });
  const controller = useRef<AbortController | null>(null);
  const mutation = useMutation({
    mutationFn: async ({ filters, cpf }: { filters: AuditFilters; cpf: string | null }) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setProgress({ bytes: 0, rows: 0 });
      try {
        return await downloadAuditCsv(filters, cpf, { signal: abort.signal, onProgress: setProgress });
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
  });
  return {
    ...mutation,
    progress,
    cancel: () => controller.current?.abort(),
  };
}

import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";

import type { CsvDownload, ExportProgress } from "./csv-download";

// A streamed CSV export as a mutation (browser only): live progress, and a way to stop it. Starting again
// stops the export under way. The audit log's and the verification list's export hooks are this one.

export type CsvDownloader<Input> = (
  input: Input,
  options: { signal: AbortSignal; onProgress: (progress: ExportProgress) => void },
) => Promise<CsvDownload>;

/** What an export control reads and does. */
export interface CsvExporter<Input> {
  mutate(input: Input): void;
  /** Stops the export under way (it then fails with an AbortError). */
  cancel(): void;
  progress: ExportProgress;
  data: CsvDownload | undefined;
  error: Error | null;
  isPending: boolean;
  isSuccess: boolean;
}

export function useCsvExport<Input>(download: CsvDownloader<Input>): CsvExporter<Input> {
  const [progress, setProgress] = useState<ExportProgress>({ bytes: 0, rows: 0 });
  const controller = useRef<AbortController | null>(null);
  const mutation = useMutation({
    mutationFn: async (input: Input) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setProgress({ bytes: 0, rows: 0 });
      try {
        return await download(input, { signal: abort.signal, onProgress: setProgress });
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
  });
  return { ...mutation, progress, cancel: () => controller.current?.abort() };
}

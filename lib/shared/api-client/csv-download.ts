import { apiResponse, errorFromResponse } from "./api-request";

/*
 * A streamed CSV download for the browser (the audit log's and the verification list's exports): read
 * through the API client (./api-request.ts: an export of unmasked data asks for a step-up first, then the same
 * download once more) + a stream reader so the page can show rows as they arrive against the total the server
 * announces (X-Total-Count), and stop it. Rows are counted by CRLF, which the server writes only between
 * records. Resolves with the file as a Blob.
 */

export interface ExportProgress {
  bytes: number;
  rows: number;
  /** Rows the server said it would send, when it said. */
  total?: number;
}

export interface CsvDownload {
  blob: Blob;
  filename: string;
  rows: number;
  bytes: number;
  total?: number;
}

export async function downloadCsv(
  url: string,
  {
    signal,
    onProgress,
    headers = {},
    fallbackName,
  }: { signal?: AbortSignal; onProgress?: (progress: ExportProgress) => void; headers?: Record<string, string>; fallbackName: string },
): Promise<CsvDownload> {
  const response = await apiResponse(url, { headers: { accept: "text/csv", ...headers }, signal });
  if (!response.body) throw await errorFromResponse(response);
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  const announced = Number(response.headers.get("x-total-count") ?? NaN);
  const total = Number.isFinite(announced) ? announced : undefined;
  // The total is known before the first row: show it at once.
  if (total !== undefined) onProgress?.({ bytes: 0, rows: 0, total });
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  let lineBreaks = 0;
  let previousByte = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    for (let index = 0; index < value.length; index += 1) {
      const byte = value[index]!;
      if (byte === 0x0a && previousByte === 0x0d) lineBreaks += 1;
      previousByte = byte;
    }
    // The first line is the header.
    onProgress?.({ bytes, rows: Math.max(0, lineBreaks - 1), total });
  }
  return { blob: new Blob(chunks, { type: "text/csv;charset=utf-8" }), filename, rows: Math.max(0, lineBreaks - 1), bytes, total };
}

/** Hands a downloaded file to the browser's save mechanism under `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke later: some browsers start reading the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

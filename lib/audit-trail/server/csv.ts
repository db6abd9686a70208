import "server-only";

import type { AuditEventExportRow } from "./query";

/*
 * CSV of audit events (RFC 4180, CRLF between records, UTF-8 with a BOM so spreadsheet programs read
 * accents right), streamed: a ReadableStream pulls one keyset batch at a time from an async iterator,
 * so memory stays constant whatever the number of rows, and a client that goes away stops the queries.
 *
 * CSV injection: a cell starting with = + - @ (or a tab / carriage return) is run as a formula by
 * spreadsheet programs, so such a cell is prefixed with a single quote (OWASP's advice). Inside a cell,
 * line breaks are normalised to LF, so CRLF appears only between records: the page counts rows by it.
 */

export const CSV_COLUMNS = [
  "id",
  "at",
  "actor_id",
  "actor_email",
  "action",
  "target_type",
  "target",
  "purpose",
  "outcome",
  "ip",
  "details",
  "prev_hash",
  "hash",
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: neutralised against formula injection, then quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value).replace(/\r\n?/g, "\n");
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(cells: Array<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

export function eventToCsvRecord(event: AuditEventExportRow): string {
  return csvRecord([
    event.id,
    event.at,
    event.actorId,
    event.actorEmail,
    event.action,
    event.targetType,
    event.target,
    event.purpose,
    event.outcome,
    event.ip,
    Object.keys(event.details).length ? JSON.stringify(event.details) : "",
    event.prevHash,
    event.hash,
  ]);
}

export const CSV_HEADER = `\uFEFF${csvRecord([...CSV_COLUMNS])}`;

export interface CsvStreamHooks {
  /** Called once with the number of rows written, when the last batch has gone out. */
  onComplete?: (rows: number) => void | Promise<void>;
  /** Called when reading a batch failed mid-stream (the response is already under way). */
  onError?: (error: unknown, rows: number) => void | Promise<void>;
}

/**
 * A byte stream of the header then every batch. Pull-based: the next query runs only when the consumer
 * has room, so a slow client slows the export instead of filling memory.
 */
export function csvStream(batches: AsyncIterator<AuditEventExportRow[]>, hooks: CsvStreamHooks = {}): ReadableStream<Uint8Array> {
  return csvRowStream(CSV_HEADER, batches, eventToCsvRecord, hooks);
}

/**
 * The same stream for any rows (the verification list's export uses it too): `header` is written first
 * (a BOM and one csvRecord), then each batch's rows through `toRecord`.
 */
export function csvRowStream<T>(
  header: string,
  batches: AsyncIterator<T[]>,
  toRecord: (row: T) => string,
  hooks: CsvStreamHooks = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let rows = 0;
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(header));
          return;
        }
        let next: IteratorResult<T[]>;
        try {
          next = await batches.next();
        } catch (error) {
          await hooks.onError?.(error, rows);
          controller.error(error);
          return;
        }
        if (next.done) {
          await hooks.onComplete?.(rows);
          controller.close();
          return;
        }
        rows += next.value.length;
        controller.enqueue(encoder.encode(next.value.map(toRecord).join("")));
      },
      async cancel() {
        await batches.return?.(undefined);
      },
    },
    // One batch at a time: nothing is read ahead of what the client has taken.
    { highWaterMark: 1 },
  );
}

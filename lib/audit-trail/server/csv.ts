import "server-only";

import type { AuditEventExportRow } from "./query";

/*
 * CSV of audit events (RFC 4180, CRLF between records, UTF-8 with a BOM so spreadsheet programs read
 * accents right), streamed: a ReadableStream pulls one keyset batch at a time from an async iterator,
 * so memory stays constant whatever the number of rows, and a client that goes away stops the queries.
 *
 * The one CSV writer: the audit export, the verification export, the overview export and the titular report all
 * write their cells with csvCell.
 *
 * CSV injection, for every locale: a field starting with = + - @ (or their full-width forms, or a tab) is run as a
 * formula by spreadsheet programs, and which character splits fields depends on who opens the file: a comma here,
 * a semicolon in Excel set to pt-BR (which also ignores the quotes around a comma-separated cell), a tab when
 * pasted. So a field may start not only where a cell starts but after any `,` `;` tab or line break inside it
 * (`Conferir;=1+1` is the cells `Conferir` and `=1+1` to pt-BR Excel). The rule: every such start (the cell's
 * own, and each after `,` `;` tab or line break), when what follows it (past spaces and quotes) is a formula
 * character, gets a single quote inserted (OWASP's advice), and a cell that was guarded, or holds a quote, `,`
 * `;`, tab or line break, is quoted. `Conferir;=1+1` is written `"Conferir;'=1+1"`: whichever way it is split,
 * no field starts with a formula character. Inside a cell, line breaks are normalised to LF, so CRLF appears
 * only between records: the page counts rows by it.
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
  // Last: the hash covers it when set (record.ts computeEventHash), after the details.
  "connection",
] as const;

// What a field starts with, past spaces and quotes, to be run as a formula: = + - @ or their full-width forms.
const FORMULA_FIELD = /^[ \u00A0"]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
// Where a field may start inside a cell: the separators some reader splits on, and line breaks.
const FIELD_SEPARATOR = /([,;\t\n])/;
const MUST_QUOTE = /[",;\t\n]/;

/** One cell: every field start that could run as a formula guarded with `'`, then quoted if guarded or split-prone. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const plain = String(value).replace(/\r\n?/g, "\n");
  // Odd indexes are the separators; a cell starting with a tab is guarded as well (a reader may trim it away).
  const text = plain
    .split(FIELD_SEPARATOR)
    .map((part, index) => ((index % 2 === 0 && FORMULA_FIELD.test(part)) || (index === 0 && plain.startsWith("\t")) ? `'${part}` : part))
    .join("");
  return text !== plain || MUST_QUOTE.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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
    event.connectionId,
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

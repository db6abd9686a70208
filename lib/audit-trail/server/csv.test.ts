import { describe, expect, it } from "vitest";

import { CSV_COLUMNS, CSV_HEADER, csvCell, csvRecord, csvStream, eventToCsvRecord } from "./csv";
import type { AuditEventExportRow } from "./query";

function row(id: number, overrides: Partial<AuditEventExportRow> = {}): AuditEventExportRow {
  return {
    id,
    at: "2026-03-10T12:00:00.000Z",
    actorId: null,
    actorEmail: "ana@example.com",
    action: "lookup.cpf",
    targetType: "cpf",
    target: "***.982.247-**",
    purpose: "onboarding",
    outcome: "success",
    ip: "10.0.0.1",
    details: {},
    prevHash: "0".repeat(64),
    hash: "a".repeat(64),
    connectionId: null,
    ...overrides,
  };
}

/** A small RFC 4180 reader, to check that what we write reads back cell for cell. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      cells.push(cell);
      records.push(cells);
      cells = [];
      cell = "";
      index += 1;
    } else cell += char;
  }
  return records;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  // ignoreBOM: keep the BOM in the text, to see that it is there.
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

async function* batchesOf(rows: AuditEventExportRow[], size: number, pulled: number[] = []) {
  for (let start = 0; start < rows.length; start += size) {
    pulled.push(start);
    yield rows.slice(start, start + size);
  }
}

describe("CSV cells", () => {
  it("neutralises cells a spreadsheet would run as a formula", () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    // Guarded cells are quoted too.
    expect(csvCell("+5511999999999")).toBe(`"'+5511999999999"`);
    expect(csvCell("-2+3")).toBe(`"'-2+3"`);
    expect(csvCell("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvCell("\tcmd")).toBe(`"'\tcmd"`);
    expect(csvCell("plain text")).toBe("plain text");
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("guards every field a semicolon, comma, tab or line break starts inside a cell, for pt-BR Excel and the rest", () => {
    expect(csvCell("Conferir;=1+1")).toBe(`"Conferir;'=1+1"`);
    expect(csvCell("ref;=1+1")).toBe(`"ref;'=1+1"`);
    expect(csvCell("a,@SUM(A1)")).toBe(`"a,'@SUM(A1)"`);
    expect(csvCell("a\t+1")).toBe(`"a\t'+1"`);
    expect(csvCell("a\n-1")).toBe(`"a\n'-1"`);
    expect(csvCell("a; =1")).toBe(`"a;' =1"`);
    expect(csvCell('a;"=1')).toBe(`"a;'""=1"`);
    expect(csvCell("a;\uFF1D1")).toBe(`"a;'\uFF1D1"`);
    expect(csvCell("a;b")).toBe(`"a;b"`);
    expect(csvCell("x=1;y=2")).toBe(`"x=1;y=2"`);
  });

  it("leaves no field starting with a formula character however the record is split", () => {
    const hostile = [
      "Conferir;=1+1",
      "ref;=1+1",
      '=HYPERLINK("http://x");=1',
      "a;;=1",
      "a,;-1",
      "a\r\n=1",
      "a\r=1",
      ";@x",
      ", +x",
      '";=1',
      "\t=1",
      "a;\t=1",
      "a; \u00A0=1",
      "a;\uFF0B1",
    ];
    const line = csvRecord(["plain", ...hostile, "-5"]).replace(/\r\n$/, "");
    for (const separator of [",", ";", "\t", "\n", "\r"]) {
      for (const field of line.split(separator)) {
        // A field's quotes and leading spaces are dropped by some readers: look past them.
        expect(field.replace(/^[\s"]+/, ""), `${JSON.stringify(separator)}: ${JSON.stringify(field)}`).not.toMatch(
          /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/,
        );
      }
    }
    // And an RFC 4180 reader gets each value back, guarded.
    const [cells] = parseCsv(`${line}\r\n`);
    expect(cells![1]).toBe("Conferir;'=1+1");
    expect(cells).toHaveLength(hostile.length + 2);
  });

  it("quotes commas, quotes and line breaks, and keeps CRLF for record ends only", () => {
    expect(csvCell('says "hi", twice')).toBe('"says ""hi"", twice"');
    expect(csvCell("two\r\nlines")).toBe('"two\nlines"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(42)).toBe("42");
    expect(csvRecord(["a", null, "b,c"])).toBe('a,,"b,c"\r\n');
  });

  it("writes every column of an event and reads back the same values", () => {
    const event = row(7, { purpose: "=cmd|' /C calc'!A0", details: { reason: 'bad, "very"', attempts: 3 }, connectionId: "production" });
    const [cells] = parseCsv(eventToCsvRecord(event));
    expect(cells).toHaveLength(CSV_COLUMNS.length);
    expect(cells).toEqual([
      "7",
      "2026-03-10T12:00:00.000Z",
      "",
      "ana@example.com",
      "lookup.cpf",
      "cpf",
      "***.982.247-**",
      "'=cmd|' /C calc'!A0",
      "success",
      "10.0.0.1",
      '{"reason":"bad, \\"very\\"","attempts":3}',
      "0".repeat(64),
      "a".repeat(64),
      "production",
    ]);
  });
});

describe("the audit export's records", () => {
  it("guards a lookup purpose holding a semicolon (pt-BR Excel splits on it)", () => {
    const record = eventToCsvRecord(row(8, { purpose: "Conferir;=1+1", target: "ref;=1+1" }));
    expect(record).toContain(`,"ref;'=1+1","Conferir;'=1+1",`);
    for (const field of record.split(/[,;\t]/)) expect(field.replace(/^[\s"]+/, "")).not.toMatch(/^[=+\-@]/);
  });
});

describe("CSV stream", () => {
  it("starts with a BOM and the header, then one record per event", async () => {
    const rows = [1, 2, 3, 4, 5].map((id) => row(id));
    let completed = -1;
    const text = await readAll(csvStream(batchesOf(rows, 2), { onComplete: (count) => void (completed = count) }));
    expect(text.startsWith("\uFEFFid,at,actor_id")).toBe(true);
    expect(text.startsWith(CSV_HEADER)).toBe(true);
    const records = parseCsv(text.slice(1));
    expect(records).toHaveLength(6);
    expect(records.slice(1).map((cells) => cells[0])).toEqual(["1", "2", "3", "4", "5"]);
    expect(completed).toBe(5);
    expect(text.split("\r\n").length - 1).toBe(6);
  });

  it("pulls the next batch only when the reader asks, and stops the source when cancelled", async () => {
    const pulled: number[] = [];
    let finished = false;
    async function* source() {
      try {
        yield* batchesOf(
          Array.from({ length: 100 }, (_, index) => row(index + 1)),
          10,
          pulled,
        );
      } finally {
        finished = true;
      }
    }
    const stream = csvStream(source());
    const reader = stream.getReader();
    await reader.read(); // header
    await reader.read(); // first batch
    // Give a would-be eager producer a chance to run ahead.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled.length).toBeLessThanOrEqual(2);
    await reader.cancel();
    expect(finished).toBe(true);
    expect(pulled.length).toBeLessThan(10);
  });

  it("reports a failure in the middle of the stream", async () => {
    async function* failing() {
      yield [row(1)];
      throw new Error("connection lost");
    }
    let failedAfter = -1;
    const stream = csvStream(failing(), { onError: (_error, rows) => void (failedAfter = rows) });
    await expect(readAll(stream)).rejects.toThrow("connection lost");
    expect(failedAfter).toBe(1);
  });
});

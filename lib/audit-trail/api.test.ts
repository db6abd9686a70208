import { afterEach, describe, expect, it, vi } from "vitest";

import { ApiRequestError } from "@/lib/shared/api-client/api-request";

import { auditApiUrl, fetchAuditPage } from "./api";
import { downloadAuditCsv } from "./export-hooks";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("audit fetchers", () => {
  it("build the URL from the filters only, and send a searched CPF in its header", async () => {
    expect(auditApiUrl({})).toBe("/api/audit");
    expect(auditApiUrl({ action: "lookup.cpf", from: "2026-03-01" }, { format: "csv" })).toBe(
      "/api/audit?action=lookup.cpf&from=2026-03-01&format=csv",
    );
    const fetchMock = vi.fn(async () => Response.json({ events: [], nextCursor: null }));
    vi.stubGlobal("fetch", fetchMock);
    await fetchAuditPage({ outcome: "denied" }, "52998224725", "abc");
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/audit?outcome=denied&limit=50&cursor=abc");
    expect(url).not.toContain("52998224725");
    expect((init.headers as Record<string, string>)["x-search-cpf"]).toBe("52998224725");
  });

  it("turn an error answer into an error naming its code and fields", async () => {
    vi.stubGlobal("fetch", async () =>
      Response.json({ error: { code: "validation", message: "Invalid input: from.", fields: ["from"] } }, { status: 400 }),
    );
    const error = await fetchAuditPage({ from: "2026-03-10", to: "2026-03-01" }, null, null).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 400, code: "validation", fields: ["from"] });
  });

  it("count rows and bytes as the export arrives, even when a record end is split between chunks", async () => {
    const header = "\uFEFFid,at\r\n";
    const chunks = [header, "1,a\r", '\n2,"multi\nline"\r\n3,c', "\r\n"];
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(streamOf(chunks), {
          headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="audit-20260310-120000.csv"' },
        }),
    );
    const progress: Array<{ rows: number; bytes: number }> = [];
    const result = await downloadAuditCsv({}, null, { onProgress: (value) => progress.push(value) });
    expect(result.rows).toBe(3);
    expect(result.filename).toBe("audit-20260310-120000.csv");
    expect(result.bytes).toBe(new TextEncoder().encode(chunks.join("")).byteLength);
    expect(progress.map((value) => value.rows)).toEqual([0, 0, 2, 3]);
    expect(await result.blob.text()).toContain('2,"multi\nline"');
  });
});

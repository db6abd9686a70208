import { afterEach, describe, expect, it, vi } from "vitest";

import { verificationsExportUrl } from "../../verifications/queries-export";
import { downloadCsv } from "./csv-download";

afterEach(() => vi.unstubAllGlobals());

describe("downloadCsv", () => {
  it("reports rows against the total the server announced, from before the first row", async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of ["\uFEFFa,b\r\n", "1,2\r\n", "3,4\r\n"]) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    vi.stubGlobal("fetch", async () => new Response(body, { headers: { "x-total-count": "2", "content-type": "text/csv" } }));
    const progress: Array<{ rows: number; total?: number }> = [];
    const result = await downloadCsv("/x.csv", { fallbackName: "x.csv", onProgress: (value) => progress.push(value) });
    expect(progress.map((value) => [value.rows, value.total])).toEqual([
      [0, 2],
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    expect(result).toMatchObject({ rows: 2, total: 2, filename: "x.csv" });
  });
});

describe("verificationsExportUrl", () => {
  it("carries the filters but not the list's page or page size", () => {
    expect(verificationsExportUrl({ status: ["review"], flow: "kyc-sow", per_page: 50, page: 3 })).toBe(
      "/api/verifications/export?status=review&flow=kyc-sow",
    );
    expect(verificationsExportUrl({})).toBe("/api/verifications/export");
  });
});

import { afterEach, describe, expect, it, vi } from "vitest";

import { verificationsExportUrl } from "@/lib/verifications/export-hooks";

import { downloadCsv } from "./csv-download";
import { setStepUpHandler } from "./step-up-registry";

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

describe("downloadCsv and step-up", () => {
  const stepUpRefusal = () =>
    new Response(JSON.stringify({ error: { code: "step_up_required", message: "Confirm it is you." } }), {
      status: 401,
      headers: { "content-type": "application/json" },
    });

  it("asks for the step-up when the export needs one, then downloads once more", async () => {
    const calls: string[] = [];
    vi.stubGlobal("fetch", async () => {
      calls.push("fetch");
      return calls.length === 1 ? stepUpRefusal() : new Response("a\r\n1\r\n", { headers: { "content-type": "text/csv" } });
    });
    const remove = setStepUpHandler(async () => {
      calls.push("dialog");
      return { verified: true };
    });
    try {
      const result = await downloadCsv("/x.csv", { fallbackName: "x.csv" });
      expect(result.rows).toBe(1);
      expect(calls).toEqual(["fetch", "dialog", "fetch"]);
    } finally {
      remove();
    }
  });

  it("fails with the refusal when the member cancels, without downloading again", async () => {
    let fetches = 0;
    vi.stubGlobal("fetch", async () => {
      fetches += 1;
      return stepUpRefusal();
    });
    const remove = setStepUpHandler(async () => ({ verified: false }));
    try {
      await expect(downloadCsv("/x.csv", { fallbackName: "x.csv" })).rejects.toMatchObject({ code: "step_up_required", status: 401 });
      expect(fetches).toBe(1);
    } finally {
      remove();
    }
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

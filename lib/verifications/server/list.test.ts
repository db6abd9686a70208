import { describe, expect, it } from "vitest";

import { toErrorResponse } from "@/lib/api/errors";
import { upstreamDateBound } from "@/lib/verifications/dates";
import { withSandbox } from "@/test/sandbox";
import { testConfig, testCoreClient } from "@/test/verifications";

import { getVerificationDetail } from "./detail";
import { listVerifications, type PagingMemory } from "./list";

const sandbox = withSandbox();

async function errorBody(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const response = toErrorResponse(error);
    return { status: response.status, ...((await response.json()) as { error: { code: string; message: string } }) };
  }
  throw new Error("expected a failure");
}

describe("listVerifications", () => {
  it("says paging is not available when the service refuses the page parameter, and stops sending it", async () => {
    // The dashboard's page parameter (CORE_PAGE_PARAM) is an assumption; here the service does not know it.
    const cfg = testConfig(sandbox.url, { CORE_PAGE_PARAM: "pagina" });
    const client = testCoreClient(cfg);
    // A memory of this test's own: the refusal is remembered there, not in the process's.
    const paging: PagingMemory = { pageParamRefusedUntil: 0 };
    const first = await listVerifications({ per_page: 5, page: 2 }, { cfg, client, paging });
    expect(first.pagingAvailable).toBe(false);
    expect(first.items).toHaveLength(5);
    expect(first.pagination.page).toBe(1);
    const queries = (await sandbox.requests()).map((request) => request.query.sort().join(","));
    expect(queries).toEqual(["pagina,per_page", "per_page"]);

    await sandbox.clearRequests();
    expect((await listVerifications({ per_page: 5 }, { cfg, client, paging })).pagingAvailable).toBe(false);
    expect((await sandbox.requests()).map((request) => request.query)).toEqual([["per_page"]]);
  });

  it("sends the page parameter the service knows, on the first page too", async () => {
    const cfg = testConfig(sandbox.url);
    const result = await listVerifications({ per_page: 3 }, { cfg, client: testCoreClient(cfg) });
    expect(result.pagingAvailable).toBe(true);
    expect((await sandbox.requests())[0]!.query.sort()).toEqual(["page", "per_page"]);
  });

  it("refuses a page size above the configured maximum before any call", async () => {
    const cfg = testConfig(sandbox.url, { CORE_MAX_PER_PAGE: "50" });
    const failure = await errorBody(listVerifications({ per_page: 100 }, { cfg, client: testCoreClient(cfg) }));
    expect(failure.status).toBe(400);
    expect(await sandbox.requests()).toEqual([]);
  });

  it("turns a server IP that is not allow-listed into its own actionable error", async () => {
    const cfg = testConfig(sandbox.url);
    const client = testCoreClient(cfg, { apiKey: "sbx_core_ip_restricted" });
    const failure = await errorBody(listVerifications({}, { cfg, client }));
    expect(failure.error.code).toBe("upstream_ip_not_allowed");
    expect(failure.error.message).toMatch(/allow-list/);
    const detail = await errorBody(getVerificationDetail("00000000-0000-4000-8000-000000000000", { cfg, client }));
    expect(detail.error.code).toBe("upstream_ip_not_allowed");
  });

  it("shows unmasked documents only with the unmasked key", async () => {
    const cfg = testConfig(sandbox.url);
    const masked = await listVerifications({ per_page: 1 }, { cfg, client: testCoreClient(cfg) });
    const unmasked = await listVerifications({ per_page: 1 }, { cfg, client: testCoreClient(cfg, { apiKey: "sbx_core_unmasked" }) });
    expect(masked.items[0]!.documentMasked).toBe(true);
    expect(unmasked.items[0]!.documentMasked).toBe(false);
    expect(unmasked.items[0]!.document).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
  });

  it("sends dates as ISO instants of the display time zone when so configured", async () => {
    const cfg = testConfig(sandbox.url, { CORE_DATE_FILTER_FORMAT: "datetime" });
    const result = await listVerifications({ from: "2020-01-01", to: "2099-12-31", per_page: 2 }, { cfg, client: testCoreClient(cfg) });
    expect(result.items).toHaveLength(2);
  });
});

describe("upstreamDateBound", () => {
  it("keeps days as they are in date mode", () => {
    expect(upstreamDateBound("2026-10-01", "from", "date", "America/Sao_Paulo")).toBe("2026-10-01");
  });

  it("gives the first and last instant of the day in the display time zone", () => {
    expect(upstreamDateBound("2026-10-01", "from", "datetime", "America/Sao_Paulo")).toBe("2026-10-01T00:00:00.000-03:00");
    expect(upstreamDateBound("2026-10-01", "to", "datetime", "America/Sao_Paulo")).toBe("2026-10-01T23:59:59.999-03:00");
    expect(upstreamDateBound("2026-07-01", "to", "datetime", "Europe/Lisbon")).toBe("2026-07-01T23:59:59.999+01:00");
    expect(upstreamDateBound("2026-01-01", "from", "datetime", "UTC")).toBe("2026-01-01T00:00:00.000+00:00");
  });
});

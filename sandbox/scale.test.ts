import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type SandboxHandle } from "../test/sandbox";
import { core, type ListAnswer } from "./test-support";

/* 100,000 verifications: behaviour only (timings are measured separately, not asserted). */

let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_VERIFICATIONS: "100000", SANDBOX_SEED: "7" });
});

afterAll(async () => {
  await sandbox?.stop();
});

const list = async (query: string) => {
  const response = await core(sandbox.url, `/public/validations-persons${query}`, "sbx_core_view");
  expect(response.status).toBe(200);
  return (await response.json()) as ListAnswer;
};

describe("100,000 verifications", () => {
  it("lists them all, page by page, with per_page respected", async () => {
    const first = await list("?per_page=100");
    expect(first.pagination).toEqual({ page: 1, per_page: 100, total: 100_000 });
    expect(first.data).toHaveLength(100);
    const last = await list("?per_page=100&page=1000");
    expect(last.data).toHaveLength(100);
    expect(Date.parse(last.data[99]!.created_at)).toBeLessThan(Date.parse(first.data[0]!.created_at));
    expect((await list("?per_page=100&page=1001")).data).toHaveLength(0);
  });

  it("filters in one pass: the status totals add up", async () => {
    let sum = 0;
    for (const status of ["approved", "review", "reproved", "started", "not_opened"]) {
      const page = await list(`?status=${status}&per_page=7`);
      expect(page.data.length).toBeLessThanOrEqual(7);
      for (const item of page.data) expect(item.status).toBe(status);
      expect(page.pagination.total).toBeGreaterThan(0);
      sum += page.pagination.total;
    }
    expect(sum).toBe(100_000);
    const combined = await list("?status=review,reproved&flow=kyc-sow&journey=high-value&per_page=50");
    for (const item of combined.data) {
      expect(["review", "reproved"]).toContain(item.status);
      expect([item.flow, item.journey]).toEqual(["kyc-sow", "high-value"]);
    }
  });
});

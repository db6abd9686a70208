import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { recordEvent as record } from "@/lib/audit-trail/server";
import { setLogSink } from "@/lib/log";
import { parseOverviewPeriod, todayIn } from "@/lib/overview/period";
import { stubTestEnvironment, testDatabases, type TestDatabase } from "@/test/db";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";
import { testConfig, testCoreClient } from "@/test/verifications";

import { createCountCache } from "./counts";
import { loadOverview, overviewAuditDetails } from "./overview";

let sandbox: SandboxHandle;
let handle: TestDatabase;
const [pglite] = testDatabases();

// One database for the file: opening PGlite is slow, and a long gap lets the sandbox close the kept-alive
// connection the control calls reuse.
beforeAll(async () => {
  stubTestEnvironment();
  setLogSink(() => undefined);
  handle = await pglite!.open();
  sandbox = await startSandbox();
});
afterAll(async () => {
  setLogSink(undefined);
  vi.unstubAllEnvs();
  await sandbox?.stop();
  await handle?.dispose();
});
beforeEach(async () => {
  await sandbox.clearFaults();
});

function period() {
  const parsed = parseOverviewPeriod(new URLSearchParams({ days: "7" }), todayIn("America/Sao_Paulo"));
  if (!parsed.ok) throw new Error("bad period");
  return parsed.period;
}

describe("loadOverview", () => {
  it("keeps the case and audit panels when the service is down, and names the failure", async () => {
    await sandbox.setFaults({ path_prefix: "/core", error_rate: 1, status: 503 });
    await record({ actor: null, action: "audit.export", outcome: "success" }, handle.db);
    const cfg = testConfig(sandbox.url);
    const overview = await loadOverview(period(), { db: handle.db, cfg, client: testCoreClient(cfg), cache: createCountCache() });
    expect(overview.verifications).toEqual({ ok: false, code: "upstream_unavailable" });
    expect(overview.cases.ok).toBe(true);
    expect(overview.activity.ok && overview.activity.data.exportActions).toEqual(["audit.export"]);
    // What the trail records of this view: the period and the panels' state, nothing else.
    expect(overviewAuditDetails(overview)).toEqual({
      from: overview.period.from,
      to: overview.period.to,
      verifications: "upstream_unavailable",
      cases: "ok",
      activity: "ok",
    });
  });

  it("says the IP is not allowed when the key's reads are refused for the server's address", async () => {
    const cfg = testConfig(sandbox.url, { CORE_API_KEY: "sbx_core_ip_restricted", UPSTREAM_TIMEOUT_MS: "15000" });
    const overview = await loadOverview(period(), { db: handle.db, cfg, client: testCoreClient(cfg), cache: createCountCache() });
    expect(overview.verifications).toEqual({ ok: false, code: "upstream_ip_not_allowed" });
  });
});

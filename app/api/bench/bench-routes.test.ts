import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { restoreConfigEnv } from "@/test/config";
import { stubTestEnvironment } from "@/test/db";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

import { GET as bare } from "./bare/route";
import { GET as proxy } from "./proxy/route";

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());
afterEach(restoreConfigEnv);

// The bench's two anchors (scripts/bench-load.ts): the proxy through the route kit, and the bare handler outside it.
describe.each([
  ["/api/bench/proxy", proxy],
  ["/api/bench/bare", bare],
])("GET %s", (path, GET) => {
  it("does not exist unless BENCH_ROUTES=on", async () => {
    stubTestEnvironment({ SANDBOX_URL: sandbox.url });
    const response = await GET(new Request(`http://localhost${path}`));
    expect(response.status).toBe(404);
  });

  it("with BENCH_ROUTES=on forwards the list's upstream call and answers its JSON as it came", async () => {
    stubTestEnvironment({ SANDBOX_URL: sandbox.url, BENCH_ROUTES: "on" });
    const response = await GET(new Request(`http://localhost${path}`));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data?: unknown[] };
    const direct = await fetch(`${sandbox.url}/core/public/validations-persons?per_page=20`, {
      headers: { "X-API-Key": "sbx_core_view_media" },
    });
    expect(body).toEqual(await direct.json());
  });
});

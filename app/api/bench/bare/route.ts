import { request as undiciRequest } from "undici";

import { config } from "@/lib/config";

// GET /api/bench/bare – the bench's anchor for the route kit's own cost (scripts/bench-load.ts): the same upstream
// call as the bare proxy (app/api/bench/proxy), forwarded with undici, but as a plain Next handler: no route kit
// (no origin check, metrics, span, request tracking, error mapping or no-store header), no session, no database.
// The list's share of its throughput is issue 37's first row; the bare proxy's share of it is the kit's own cost.
// The one handler under app/api outside the kit, on purpose: like the proxy it exists only with BENCH_ROUTES=on in
// embedded mode (the sandbox's demo key) and is a 404 otherwise, so no deployment has an unauthenticated proxy.
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const cfg = config();
  if (!cfg.benchRoutes) return Response.json({ error: { code: "not_found", message: "Not found." } }, { status: 404 });
  const upstream = await undiciRequest(`${cfg.core.url}/public/validations-persons?per_page=20`, {
    headers: { "X-API-Key": cfg.core.apiKey },
  });
  return Response.json(await upstream.body.json());
}

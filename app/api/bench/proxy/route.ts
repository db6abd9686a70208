import { request as undiciRequest } from "undici";

import { json, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { AppError } from "@/lib/shared/errors";

// GET /api/bench/proxy – the bench's floor (scripts/bench-load.ts): forwards the list's upstream call
// (`GET /public/validations-persons?per_page=20`) with undici and answers its JSON, nothing else: no session,
// validation, audit, enrichment or masking. So the list route's share of its throughput is the dashboard's own
// cost over the proxy hop. Exists only with BENCH_ROUTES=on in embedded mode (the sandbox's demo key); a 404
// otherwise, so no deployment with the real service ever has an unauthenticated proxy. No database either
// (`database: false`).
export const dynamic = "force-dynamic";

export const GET = route({ permission: "public", database: false }, async () => {
  const cfg = config();
  if (!cfg.benchRoutes) throw new AppError("not_found");
  const upstream = await undiciRequest(`${cfg.core.url}/public/validations-persons?per_page=20`, {
    headers: { "X-API-Key": cfg.core.apiKey },
  });
  return json(await upstream.body.json());
});

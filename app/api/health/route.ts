import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { pingDatabase } from "@/lib/db/readiness";
import { PROBE_TIMEOUT_MS, probeUpstreams, timedProbe, type ProbeResult } from "@/lib/upstream/readiness";

// GET /api/health – liveness (the process answers); `?ready` adds readiness: the database, and each
// upstream answering a cheap real call correctly (lib/upstream/readiness.ts). No session needed; the
// answer names checks and reasons, never addresses or credentials. The kit does not open the database here
// (`database: false`): liveness answers without it, readiness probes it with a timeout.
export const dynamic = "force-dynamic";

// Probes hit the upstreams: answer repeated readiness polls from a short-lived result.
let lastReadiness: { at: number; body: Record<string, ProbeResult> } | undefined;

// Not strict: a load balancer's probe may add parameters of its own.
const readyQuery = z.object({ ready: z.string().optional() });

export const GET = route({ permission: "public", query: readyQuery, database: false }, async ({ query }) => {
  if (query.ready === undefined) return json({ status: "ok" });

  if (!lastReadiness || Date.now() - lastReadiness.at > 5000) {
    const [database, upstreams] = await Promise.all([timedProbe(() => pingDatabase(PROBE_TIMEOUT_MS)), probeUpstreams()]);
    lastReadiness = { at: Date.now(), body: { database, ...upstreams } };
  }
  const checks = lastReadiness.body;
  const ready = Object.values(checks).every((check) => check.ok);
  return json({ status: ready ? "ready" : "not_ready", checks }, { status: ready ? 200 : 503 });
});

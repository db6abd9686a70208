import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { migrationsApplied, pingDatabase } from "@/lib/db/readiness";
import { isDraining } from "@/lib/runtime/lifecycle";
import { PROBE_TIMEOUT_MS, probeUpstreams, timedProbe, type ProbeResult } from "@/lib/upstream/readiness";

// GET /api/health – liveness (the process answers) with the release (version, commit); `?ready` adds readiness: the
// database, its migrations (every one this release ships applied), and each upstream answering a cheap real call
// correctly (lib/upstream/readiness.ts), cached 5 s. A stopping instance (SIGTERM) answers readiness 503 `draining`
// at once, so a load balancer sends it nothing new (docs/operations.md "Health checks"). No session needed; the
// answer names checks and reasons, never addresses or credentials. The kit does not open the database here
// (`database: false`): liveness answers without it, readiness probes it with a timeout.
export const dynamic = "force-dynamic";

const RELEASE = { version: process.env.KYC_VERSION ?? "unknown", commit: process.env.KYC_COMMIT ?? "unknown" };

// Probes hit the upstreams: answer repeated readiness polls from a short-lived result.
let lastReadiness: { at: number; body: Record<string, ProbeResult> } | undefined;

// Not strict: a load balancer's probe may add parameters of its own.
const readyQuery = z.object({ ready: z.string().optional() });

export const GET = route({ permission: "public", query: readyQuery, database: false }, async ({ query }) => {
  if (query.ready === undefined) return json({ status: "ok", ...RELEASE });
  if (isDraining()) return json({ status: "draining", ...RELEASE }, { status: 503 });

  if (!lastReadiness || Date.now() - lastReadiness.at > 5000) {
    const [database, migrations, upstreams] = await Promise.all([
      timedProbe(() => pingDatabase(PROBE_TIMEOUT_MS)),
      timedProbe(async () => {
        if (!(await migrationsApplied(PROBE_TIMEOUT_MS))) throw Object.assign(new Error("behind"), { name: "MigrationsBehind" });
      }),
      probeUpstreams(),
    ]);
    lastReadiness = { at: Date.now(), body: { database, migrations, ...upstreams } };
  }
  const checks = lastReadiness.body;
  const ready = Object.values(checks).every((check) => check.ok);
  return json({ status: ready ? "ready" : "not_ready", ...RELEASE, checks }, { status: ready ? 200 : 503 });
});

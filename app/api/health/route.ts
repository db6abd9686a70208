import { sql } from "drizzle-orm";

import { json, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";

// GET /api/health – liveness (the process answers); `?ready` adds readiness: the database and each
// upstream reachable. No session needed; the answer names checks, never addresses or credentials.
export const dynamic = "force-dynamic";

const CHECK_TIMEOUT_MS = 3000;
type Check = { ok: boolean; ms: number; problem?: string };

async function timed(run: () => Promise<void>): Promise<Check> {
  const started = performance.now();
  try {
    await run();
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const problem = error instanceof Error && error.name === "TimeoutError" ? "timeout" : "unreachable";
    return { ok: false, ms: Math.round(performance.now() - started), problem };
  }
}

/** Any HTTP answer means the service is reachable; its meaning is the route handlers' business. */
async function reachable(url: string): Promise<void> {
  const response = await fetch(url, { method: "GET", redirect: "manual", signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
  await response.body?.cancel();
}

// Probes hit the upstreams: answer repeated readiness polls from a short-lived result.
let lastReadiness: { at: number; body: Record<string, Check> } | undefined;

export const GET = route({ role: "public" }, async ({ request }) => {
  if (!new URL(request.url).searchParams.has("ready")) return json({ status: "ok" });

  if (!lastReadiness || Date.now() - lastReadiness.at > 5000) {
    const [database, core, partners] = await Promise.all([
      timed(async () => {
        const db = await getDb();
        await Promise.race([
          db.execute(sql`select 1`),
          new Promise((_, reject) =>
            setTimeout(() => reject(Object.assign(new Error("timeout"), { name: "TimeoutError" })), CHECK_TIMEOUT_MS),
          ),
        ]);
      }),
      timed(() => reachable(config().core.url)),
      timed(() => reachable(config().partners.url)),
    ]);
    lastReadiness = { at: Date.now(), body: { database, core, partners } };
  }
  const checks = lastReadiness.body;
  const ready = Object.values(checks).every((check) => check.ok);
  return json({ status: ready ? "ready" : "not_ready", checks }, { status: ready ? 200 : 503 });
});

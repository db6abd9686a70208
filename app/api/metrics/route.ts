import { route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { holdsMetricsToken, metrics } from "@/lib/metrics/registry";
import { outboxBacklog } from "@/lib/notifications/server/outbox";
import { AppError } from "@/lib/shared/errors";

// GET /api/metrics – this instance's metrics in Prometheus's text format, for a scraper (docs/operations.md#metrics).
// No session (a scraper is no member): off, a 404 like any unknown address, unless METRICS_TOKEN is set; then only
// with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise). The outbox's backlog is shared by every instance and
// read from the database at each scrape; the rest is this process's own.
export const dynamic = "force-dynamic";

export const GET = route({ permission: "public" }, async ({ request, db }) => {
  const token = config().operations.metricsToken;
  if (!token) throw new AppError("not_found");
  if (!holdsMetricsToken(request, token)) throw new AppError("unauthenticated");
  const { registry, outboxDepth, outboxOldestAge } = metrics();
  const backlog = await outboxBacklog(db);
  outboxDepth.set(backlog.depth);
  outboxOldestAge.set(backlog.oldestAgeSeconds);
  return new Response(await registry.metrics(), { headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" } });
});

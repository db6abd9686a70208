import "server-only";

import { randomUUID } from "node:crypto";

import { auditedAction, type RequestContext } from "@/lib/audit-trail/server";
import { config } from "@/lib/config";
import { withConnection } from "@/lib/connections/server/bind";
import { liveConnections } from "@/lib/connections/server/store";
import { getDb } from "@/lib/db/client";
import { startLeasedJob } from "@/lib/db/leased-job";
import { log } from "@/lib/log";
import { flushUpstreamCalls, withUpstreamSource } from "@/lib/upstream/call-count";
import { coreClient } from "@/lib/upstream/core";
import { NoPartnersAccountError, partnersClient, type PartnersClient } from "@/lib/upstream/partners";

import { runScreening, SCREENING_LEASE, type ScreeningReport, type Speaker } from "./screening";

/*
 * The ongoing screening, on demand (POST /api/monitoring/run) and every hour. Every instance runs the timer; the
 * lease (./screening.ts SCREENING_LEASE) lets one run at a time, and the day's budget (./settings.ts) caps what the
 * runs of a day spend. Each run's intent is on the audit trail before its first upstream call (`monitoring.run`, by
 * the member on demand, by the system on schedule); its calls are counted under the job's source
 * (`job:monitoring.screen`) on the upstream calls page, whichever way it ran.
 */

const INSTANCE = randomUUID();
const RUN_GAP_MS = 60 * 60_000;
export const SCREENING_SOURCE = "job:monitoring.screen";

function partnersOrNull(): PartnersClient | null {
  try {
    return partnersClient();
  } catch (error) {
    if (error instanceof NoPartnersAccountError) return null;
    throw error;
  }
}

/** Speaks as a live connection with its own key; a retired or unknown one answers null (its people wait). */
async function speakerOf(connectionId: string): Promise<Speaker | null> {
  const connection = (await liveConnections(await getDb())).find((live) => live.id === connectionId);
  if (!connection) return null;
  return (work) =>
    withConnection(connection, () => withUpstreamSource(SCREENING_SOURCE, () => work({ core: coreClient(), partners: partnersOrNull() })));
}

/**
 * One run. On demand (`context` given) the member's intent is on the trail before anything else; on schedule the
 * system's intent (actor null) is written once the run holds the lease and has someone to screen, before the first
 * upstream call, so an idle look writes nothing.
 */
export async function runMonitoring(
  how: { context: RequestContext; limit?: number } | { scheduled: true; minGapMs: number },
): Promise<ScreeningReport> {
  const cfg = config();
  const db = await getDb();
  const audit = (context: RequestContext, work: () => Promise<ScreeningReport>) =>
    auditedAction(context, { action: "monitoring.run", details: { scheduled: !("context" in how) }, detailsOf: reportDetails }, work);
  const run = () =>
    runScreening(db, {
      holder: INSTANCE,
      minGapMs: "context" in how ? 0 : how.minGapMs,
      limit: "context" in how ? how.limit : undefined,
      speakerOf,
      attemptsPerRead: 1 + cfg.upstream.readRetries,
      timeZone: cfg.displayTimeZone,
      whenScreening: "context" in how ? undefined : (work) => audit({ actor: null, ip: null }, work),
    });
  try {
    return "context" in how ? await audit(how.context, run) : await run();
  } finally {
    await flushUpstreamCalls(db).catch((error: unknown) => log.warn("upstream_calls_flush_failed", { error }));
  }
}

function reportDetails(report: ScreeningReport) {
  return {
    ran: report.ran,
    screened: report.screened,
    failed: report.failed,
    alerts: report.alertsOpened,
    calls: report.calls,
    budgetLeft: report.budgetLeft,
  };
}

/** Starts the hourly schedule once per process (instrumentation.ts); a budget of 0 makes each run screen nobody. */
export function startScreeningSchedule(): void {
  startLeasedJob({
    lease: SCREENING_LEASE,
    gapMs: RUN_GAP_MS,
    maxSleepMs: 10 * 60_000,
    firstLookMs: 60_000,
    run: async ({ minGapMs }) => {
      const report = await runMonitoring({ scheduled: true, minGapMs });
      if (report.ran) log.info("monitoring_run", { screened: report.screened, alerts: report.alertsOpened, calls: report.calls });
      return report.ran && report.screened + report.failed > 0 ? "ran" : "idle";
    },
  });
}

import "server-only";

import { fromUpstreamError } from "@/lib/api/errors";
import { config, type Config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { type AuditActivity } from "@/lib/overview/activity";
import { type CaseFigures } from "@/lib/overview/cases";
import type { VerificationCounts } from "@/lib/overview/figures";
import { addDays, type OverviewPeriod } from "@/lib/overview/period";
import type { Overview, Panel } from "@/lib/overview/types";
import { AppError } from "@/lib/shared/errors";
import { startOfDay } from "@/lib/shared/time-zone";
import { currentConnectionId } from "@/lib/upstream/account";
import { coreClient, type CoreClient } from "@/lib/upstream/core";
import { isUpstreamError } from "@/lib/upstream/errors";

import { auditActivity } from "./activity";
import { caseFigures } from "./cases";
import { sharedCountCache, verificationCounts, type CountCache } from "./counts";
import { mirroredCounts } from "./mirror";

/*
 * Everything the overview shows, for one period. Each panel stands alone: the service being unreachable
 * leaves the case and audit panels drawn, and a broken panel says why instead of showing zeros.
 */

export interface OverviewDeps {
  db: Database;
  cfg?: Config;
  client?: CoreClient;
  cache?: CountCache;
  now?: Date;
}

function codeOf(error: unknown): string {
  if (isUpstreamError(error)) return fromUpstreamError(error).code;
  if (error instanceof AppError) return error.code;
  return "internal";
}

async function panel<T>(name: string, load: () => Promise<T>): Promise<Panel<T>> {
  try {
    return { ok: true, data: await load() };
  } catch (error) {
    const code = codeOf(error);
    if (code === "internal") log.error("overview_panel_failed", { panel: name, error });
    return { ok: false, code };
  }
}

/**
 * Each panel's data for a period, thrown errors and all: the page wraps them as panels, the CSV export
 * (lib/overview/server/export.ts) calls the one its table needs, so both show the same numbers from one computation.
 */
export const panelLoaders = {
  verifications: async (period: OverviewPeriod, deps: OverviewDeps): Promise<VerificationCounts> => {
    const cfg = deps.cfg ?? config();
    const client = deps.client ?? coreClient();
    const cache = deps.cache ?? sharedCountCache;
    // From the status mirror, checked against the service's totals (./mirror.ts); day by day where it cannot serve.
    const mirrored = await mirroredCounts(period, { db: deps.db, cfg, client, cache, connectionId: currentConnectionId() });
    return mirrored ?? verificationCounts(period, { cfg, client, cache });
  },
  cases: (period: OverviewPeriod, deps: OverviewDeps): Promise<CaseFigures> => {
    const timeZone = (deps.cfg ?? config()).displayTimeZone;
    const range = { start: startOfDay(period.from, timeZone), end: startOfDay(addDays(period.to, 1), timeZone) };
    // The connection the view speaks as (the page's or the export's, bound by lib/connections).
    return caseFigures(deps.db, currentConnectionId(), range, deps.now);
  },
  activity: (period: OverviewPeriod, deps: OverviewDeps): Promise<AuditActivity> =>
    auditActivity(deps.db, period, (deps.cfg ?? config()).displayTimeZone),
};

export async function loadOverview(period: OverviewPeriod, deps: OverviewDeps): Promise<Overview> {
  const [verifications, cases, activity] = await Promise.all([
    panel("verifications", () => panelLoaders.verifications(period, deps)),
    panel("cases", () => panelLoaders.cases(period, deps)),
    panel("activity", () => panelLoaders.activity(period, deps)),
  ]);
  return { period, verifications, cases, activity };
}

/** What the audit trail records of an overview view: the period and which panels answered. No personal data. */
export function overviewAuditDetails(overview: Overview): Record<string, string | number | boolean> {
  return {
    from: overview.period.from,
    to: overview.period.to,
    verifications: overview.verifications.ok ? "ok" : overview.verifications.code,
    cases: overview.cases.ok ? "ok" : overview.cases.code,
    activity: overview.activity.ok ? "ok" : overview.activity.code,
  };
}

import "server-only";

import { desc, eq } from "drizzle-orm";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { Database } from "@/lib/db/client";
import { RETENTION_KINDS, type RetentionCounts, type RetentionReportDto } from "@/lib/privacy/retention";

import { retentionPolicies } from "./policies";

/*
 * GET /api/privacy/retention: the policies in force and the last run of the pruner, read from the latest
 * `retention.prune` audit event (each run writes one; there is no table of runs).
 */
export async function retentionReport(db: Database): Promise<RetentionReportDto> {
  const [last] = await db
    .select({ at: auditEvents.at, details: auditEvents.details })
    .from(auditEvents)
    .where(eq(auditEvents.action, "retention.prune"))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  const counts: Partial<RetentionCounts> = {};
  const details = (last?.details ?? {}) as Record<string, unknown>;
  for (const kind of RETENTION_KINDS) {
    const value = details[kind];
    // A run leaves out the kinds it removed nothing of (./pruner.ts).
    counts[kind] = typeof value === "number" ? value : 0;
  }
  return {
    policies: retentionPolicies().map(({ kind, days, reason }) => ({ kind, days, reason })),
    lastRun: last ? { at: last.at.toISOString(), counts } : null,
  };
}

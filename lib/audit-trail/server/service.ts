import "server-only";

import { DEFAULT_PAGE_SIZE, type AuditFilters } from "@/lib/audit-trail/filters";
import { audited, type AuditSpec } from "@/lib/audit-trail/server/actions";
import type { RequestContext } from "@/lib/audit-trail/server/context";
import { cpfHashes, type AuditDetails, type AuditTarget } from "@/lib/audit-trail/server/record";
import { timeRange } from "@/lib/audit-trail/time-range";
import type { AuditCheckpointsExport } from "@/lib/audit-trail/types";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";

import { listAuditCheckpoints } from "./checkpoint";
import { csvStream } from "./csv";
import { decodeCursor, InvalidCursorError, iterateAuditEvents, listAuditEvents, type AuditEventFilter, type AuditPage } from "./query";

/*
 * Reading the audit log is itself an audited action: the page, GET /api/audit and the CSV export all go
 * through here, and each records who looked, with which filters, from where. A searched CPF is recorded
 * as the event's target (masked, plus its keyed hash), so a later CPF search also shows who searched for it.
 *
 * As everywhere in the dashboard, the answer leaves only once its record is written: if recording fails,
 * the log is not shown.
 */

export const EXPORT_BATCH_SIZE = 1000;

/** Form filters (+ a CPF from its header) → the query's filter, refusing what cannot be asked. */
export function toEventFilter(filters: AuditFilters, cpf: string | undefined, seesCoaf: boolean): AuditEventFilter {
  if (cpf && filters.target) {
    throw new AppError("validation", "Search either by CPF or by target, not both: a CPF search already selects the target.", {
      fields: ["target"],
    });
  }
  const { from, toExclusive } = timeRange(filters, config().displayTimeZone);
  if (from && toExclusive && from >= toExclusive) {
    throw new AppError("validation", "Invalid input: from: must be before `to`.", { fields: ["from"] });
  }
  return {
    actor: filters.actor,
    action: filters.action,
    targetType: filters.target_type,
    target: filters.target,
    outcome: filters.outcome,
    connection: filters.in_connection,
    // Under every key of the audit ring: events written before a rotation keep the old key's hash.
    targetHashes: cpf ? cpfHashes(cpf) : undefined,
    from,
    toExclusive,
    // Suspicious-activity reports' events only for a member holding `coaf.report` (Lei 9.613/98 art. 11 §2).
    withoutCoaf: !seesCoaf,
  };
}

function accessTarget(filters: AuditFilters, cpf: string | undefined): AuditTarget | undefined {
  if (cpf) return { type: "cpf", cpf };
  if (filters.target) return { type: filters.target_type ?? "any", id: filters.target };
  return undefined;
}

function accessDetails(filters: AuditFilters, extra: AuditDetails): AuditDetails {
  const details: AuditDetails = { ...extra };
  for (const key of ["actor", "action", "target_type", "outcome", "in_connection", "from", "to"] as const) {
    const value = filters[key];
    if (value !== undefined) details[key] = value;
  }
  if (filters.target_type && filters.target) delete details.target_type;
  return details;
}

function accessSpec<T>(action: "audit.view" | "audit.export", filters: AuditFilters, cpf: string | undefined, extra: AuditDetails) {
  return { action, target: accessTarget(filters, cpf), details: accessDetails(filters, extra) } satisfies AuditSpec<T>;
}

/** Records a refused attempt to open the audit log (a signed-in analyst), then refuses it. */
export async function refuseAuditAccess(viewer: RequestContext, action: "audit.view" | "audit.export"): Promise<never> {
  return audited(viewer, { action }, () => {
    throw new AppError("forbidden", "Only administrators can read the audit log.");
  });
}

/** One page of the log for the page and GET /api/audit; the access is recorded before it is returned. */
export async function viewAuditLog(
  db: Database,
  viewer: RequestContext,
  request: { filters: AuditFilters; cpf?: string; cursor?: string; limit?: number; seesCoaf: boolean },
): Promise<AuditPage> {
  const filter = toEventFilter(request.filters, request.cpf, request.seesCoaf);
  if (request.cursor) {
    try {
      decodeCursor(request.cursor);
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new AppError("validation", error.message, { fields: ["cursor"] });
      throw error;
    }
  }
  const spec = accessSpec<AuditPage>("audit.view", request.filters, request.cpf, { page: request.cursor ? "next" : "first" });
  return audited(viewer, { ...spec, detailsOf: (page) => ({ shown: page.events.length }) }, () =>
    listAuditEvents(db, filter, { cursor: request.cursor, limit: request.limit ?? DEFAULT_PAGE_SIZE }),
  );
}

/**
 * The CSV export of every event matching the filters, as a stream. The export is recorded before the
 * first byte leaves (its size is not known yet); a failure part-way is recorded as a second event.
 */
export async function exportAuditLog(
  db: Database,
  viewer: RequestContext,
  request: { filters: AuditFilters; cpf?: string; seesCoaf: boolean },
): Promise<ReadableStream<Uint8Array>> {
  const filter = toEventFilter(request.filters, request.cpf, request.seesCoaf);
  await audited(viewer, accessSpec("audit.export", request.filters, request.cpf, { format: "csv" }), async () => undefined);
  const started = Date.now();
  return csvStream(iterateAuditEvents(db, filter, EXPORT_BATCH_SIZE), {
    onComplete: (rows) => log.info("audit_export_done", { rows, ms: Date.now() - started }),
    onError: async (error, rows) => {
      log.error("audit_export_failed", { rows, error });
      // Best effort: the stream has already started, so the failure can only be noted.
      await audited(viewer, accessSpec("audit.export", request.filters, request.cpf, { format: "csv", rows_sent: rows }), () =>
        Promise.reject(error),
      ).catch(() => undefined);
    },
  });
}

/**
 * Every signed checkpoint (retention and head), for an admin to keep outside the database: with the audit key,
 * they show later whether events were cut off the end or the chain rewritten. Recorded as an `audit.export`.
 */
export async function exportAuditCheckpoints(db: Database, viewer: RequestContext): Promise<AuditCheckpointsExport> {
  return audited(
    viewer,
    { action: "audit.export", details: { format: "checkpoints" }, detailsOf: (exported) => ({ rows: exported.checkpoints.length }) },
    async () => ({
      checkpoints: (await listAuditCheckpoints(db)).map((row) => ({
        id: row.id,
        kind: row.kind,
        createdAt: row.createdAt.toISOString(),
        throughEventId: row.throughEventId,
        throughEventHash: row.throughEventHash,
        throughEventAt: row.throughEventAt.toISOString(),
        removedCount: row.removedCount,
        cutoff: row.cutoff.toISOString(),
        retentionDays: row.retentionDays,
        signature: row.signature,
        keyId: row.keyId,
      })),
    }),
  );
}

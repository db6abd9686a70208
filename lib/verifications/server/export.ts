import "server-only";

import { audited, recordEvent, type RequestContext } from "@/lib/audit-trail/server";
import { csvRecord, csvRowStream } from "@/lib/audit-trail/server/csv";
import { redFlags } from "@/lib/cases/red-flags";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { consumeQuota } from "@/lib/db/quotas";
import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";
import { isoInZone } from "@/lib/shared/time-zone";
import { verificationFor } from "@/lib/upstream/model/masking";
import type { Verification } from "@/lib/upstream/model/verification";
import { isDecided } from "@/lib/upstream/model/verification";
import type { VerificationFilters } from "@/lib/upstream/model/verification-query";
import type { ListEnrichment, VerificationListResponse } from "@/lib/verifications/types";

import { listDetails } from "./audit-details";
import { enrichList } from "./enrich";
import { subjectCpfHashOf } from "./known";
import { listVerifications, type VerificationDeps } from "./list";

/*
 * CSV of the filtered verification list (GET /api/verifications/export). The service has no export, so the
 * list is read page by page at the largest page size, one page per pull of the stream: memory stays at one
 * page whatever the total, and a client that goes away stops the reading. The first page is read before the
 * answer starts, so an upstream refusal is an ordinary error response and the total is known up front
 * (sent as X-Total-Count; the page shows progress against it).
 *
 * Cells go through the audit export's csvCell (formula-safe, RFC 4180). The document is written as the member
 * may see it (lib/upstream/model/masking.ts): masked unless both the API key and the member hold the unmasked
 * permission, and a column says which.
 * Times are in the display time zone with their offset.
 */

/**
 * ASSUMPTION (docs/assumptions.md#export-ceiling): a ceiling on one export, so a forgotten filter does not page
 * through the whole account.
 */
export const MAX_EXPORT_ROWS = 50_000;

export const EXPORT_COLUMNS = [
  "public_id",
  "ref_id",
  "document",
  "document_masked",
  "status",
  "flow",
  "journey",
  "created_at",
  "decided_at",
  "identity_score",
  "risk_score",
  "ocr",
  "liveness",
  "liveness_score",
  "facematch",
  "facematch_similarity",
  "pep_origin",
  "restrictive_lists",
  "red_flags",
  "case_opened_at",
  "case_owner",
] as const;

export const EXPORT_HEADER = `\uFEFF${csvRecord([...EXPORT_COLUMNS])}`;

export function verificationToCsvRecord(item: Verification, known: ListEnrichment | undefined, timeZone: string): string {
  const time = (iso: string | null | undefined) => {
    const date = iso ? new Date(iso) : null;
    return date && !Number.isNaN(date.getTime()) ? isoInZone(date, timeZone) : (iso ?? "");
  };
  const step = (name: string) => item.steps.find((candidate) => candidate.name === name);
  return csvRecord([
    item.publicId,
    known?.refId,
    item.document,
    item.documentMasked ? "yes" : "no",
    item.status,
    item.flow,
    item.journey,
    time(item.createdAt),
    isDecided(item.status) ? time(item.decidedAt) : "",
    item.identityScore,
    item.riskScore,
    step("ocr")?.state,
    step("liveness")?.state,
    step("liveness")?.score,
    step("facematch")?.state,
    step("facematch")?.similarity,
    item.pepOrigin,
    item.restrictiveLists.map((entry) => entry.name ?? "?").join("; "),
    redFlags(item)
      .map((flag) => flag.kind)
      .join("; "),
    time(known?.caseOpenedAt),
    known?.caseOwner,
  ]);
}

export interface VerificationExport {
  total: number;
  /** false when the service refused the page parameter: only its first page is exported. */
  complete: boolean;
  stream: ReadableStream<Uint8Array>;
}

export interface ExportHooks {
  onComplete?: (rows: number) => void | Promise<void>;
  onError?: (error: unknown, rows: number) => void | Promise<void>;
  /** Runs on each page before its rows are written (the rows as the service sent them); a throw stops the file. */
  onBatch?: (items: Verification[]) => Promise<void>;
}

export interface ExportOptions {
  /** The member holds `personal_data.unmasked`: rows as the key gives them; otherwise masked by the dashboard. */
  unmasked: boolean;
}

/** Reads the first page, refuses an export past the ceiling, and streams the rest as the client takes it. */
export async function exportVerifications(
  db: Database,
  filters: VerificationFilters,
  { unmasked }: ExportOptions,
  hooks: ExportHooks = {},
  deps: VerificationDeps = {},
): Promise<VerificationExport> {
  const cfg = deps.cfg ?? config();
  const perPage = cfg.core.maxPerPage;
  const read = async (page: number) => enrichList(db, await listVerifications({ ...filters, per_page: perPage, page }, deps));
  const first = await read(1);
  const total = first.pagination.total;
  if (total > MAX_EXPORT_ROWS) {
    throw new AppError(
      "validation",
      `The filters match ${total} verifications; one export holds at most ${MAX_EXPORT_ROWS}. Narrow the filters.`,
      {
        fields: ["filters"],
      },
    );
  }
  const pages = first.pagingAvailable ? Math.max(1, Math.ceil(total / Math.max(1, first.pagination.perPage))) : 1;

  async function* batches(): AsyncGenerator<Array<[Verification, ListEnrichment | undefined]>> {
    let list: VerificationListResponse = first;
    for (let page = 1; ;) {
      await hooks.onBatch?.(list.items);
      yield list.items.map((item) => [verificationFor(item, unmasked), list.enrichment?.[item.publicId]]);
      page += 1;
      if (page > pages) return;
      list = await read(page);
      // A page that comes back empty (rows removed since the first read): nothing more to read.
      if (list.items.length === 0) return;
    }
  }

  const timeZone = cfg.displayTimeZone;
  const stream = csvRowStream(EXPORT_HEADER, batches(), ([item, known]) => verificationToCsvRecord(item, known, timeZone), {
    onComplete: hooks.onComplete,
    onError: async (error, rows) => {
      log.error("verification_export_failed", { rows, error });
      await hooks.onError?.(error, rows);
    },
  });
  return { total: first.pagingAvailable ? total : first.items.length, complete: first.pagingAvailable, stream };
}

/**
 * The export as an audited read: recorded with its filters, total and the number of people before the first
 * byte leaves (if that fails, no CSV); a failure part-way, when the answer is already under way, is recorded
 * as a second event. Its rows count against the member's export quota (refused whole when they do not fit,
 * recorded as denied). Each page's people are put on the trail before their rows are written, one
 * `verification.export_subject` event each with the person's keyed CPF hash when known, so the titular
 * report finds every file a person was in.
 */
export async function auditedVerificationExport(
  context: RequestContext,
  filters: VerificationFilters,
  { unmasked }: ExportOptions,
  deps: VerificationDeps = {},
): Promise<VerificationExport> {
  const { page: _page, per_page: _perPage, ...exported } = filters;
  const details = { ...listDetails(exported), page: null, format: "csv", unmasked };
  const db = await getDb();
  const onError = async (_error: unknown, rows: number) => {
    await recordEvent({
      ...context,
      action: "verification.export",
      outcome: "failure",
      details: { ...details, reason: "interrupted", rowsSent: rows },
    }).catch((auditError: unknown) => log.error("audit_failed", { action: "verification.export", error: auditError }));
  };
  const onBatch = async (items: Verification[]) => {
    await Promise.all(
      items.map(async (item) =>
        recordEvent({
          ...context,
          action: "verification.export_subject",
          target: { type: "verification", id: item.publicId },
          subjectCpfHash: await subjectCpfHashOf(db, item),
          outcome: "success",
          details: { format: "csv", unmasked },
        }),
      ),
    );
  };
  return audited(
    context,
    {
      action: "verification.export",
      details,
      detailsOf: (result) => ({ total: result.total, complete: result.complete, people: result.total }),
    },
    async () => {
      const file = await exportVerifications(db, exported, { unmasked }, { onError, onBatch }, deps);
      try {
        await consumeQuota(db, "export_rows", context.actor?.id ?? "unknown", { amount: Math.max(1, file.total) });
      } catch (error) {
        void file.stream.cancel().catch(() => undefined);
        throw error;
      }
      return file;
    },
  );
}

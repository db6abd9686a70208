import "server-only";

import { and, desc, eq, sql } from "drizzle-orm";

import { failureOf, recordEvent } from "@/lib/audit-trail/server";
import type { RequestContext } from "@/lib/audit-trail/server/context";
import type { CoafGround, SuspiciousActivityDto } from "@/lib/cases/coaf";
import type { FileSuspiciousActivityInput, OpenSuspiciousActivityInput } from "@/lib/cases/suspicious-activity";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { isSealedText, openText, sealedTextKeyId, sealText } from "@/lib/keys/ring";
import { SEALED_RECORD_TEXTS } from "@/lib/keys/sealed-records";
import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";

import { caseHere, connectionHere } from "./scope";
import { cases, suspiciousActivityReports } from "./tables";

/*
 * Suspicious-activity reports to COAF (Lei 9.613/1998 art. 11; issue 34, item 1). A member holding `coaf.report` opens
 * a draft from a case (openReport: the summary sealed under the data key ring like a case note, the grounds, the
 * operations), records the SISCOAF protocol once it is filed (fileReport) and lists them with their deadline
 * (listReports): the case's decision, or its opening while undecided, plus COAF_REPORT_DEADLINE_DAYS.
 *
 * No tipping off (art. 11 §2). The person must never learn of a report: its audit events target the report
 * (`suspicious_activity_report`), never the verification, and carry no CPF hash, so neither the titular report nor a
 * CPF search of the trail finds them; the trail hides `coaf.*` actions from members without `coaf.report`
 * (lib/audit-trail/server/service.ts) and the titular report leaves them out by name
 * (lib/privacy/server/titular-report.ts). Nothing is written to the case's history and no one is notified.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SUMMARY_PURPOSE = SEALED_RECORD_TEXTS.coafSummary.purpose;
const DAY_MS = 86_400_000;
const LIST_LIMIT = 200;

export interface CoafContext extends RequestContext {
  actor: { id: string; email: string };
}

function openSummary(stored: string): string {
  if (!isSealedText(stored)) return "[stored without encryption: not shown]";
  return openText(config().secrets.dataEncryption, SUMMARY_PURPOSE, stored) ?? `[sealed under retired key ${sealedTextKeyId(stored)}]`;
}

function reportEvent(context: CoafContext, id: string) {
  return { actor: context.actor, ip: context.ip, pageView: context.pageView, target: { type: "suspicious_activity_report", id } };
}

async function refused(
  db: Database,
  context: CoafContext,
  action: "coaf.report_open" | "coaf.report_filed",
  id: string,
  error: AppError,
): Promise<never> {
  const { outcome, reason } = failureOf(error);
  await recordEvent({ ...reportEvent(context, id), action, outcome, details: { reason } }, db).catch((auditError: unknown) =>
    log.error("audit_failed", { action, error: auditError }),
  );
  throw error;
}

/** Opens a draft report from the case of `publicId` (this connection's); the event in the same transaction. */
export async function openReport(
  db: Database,
  context: CoafContext,
  publicId: string,
  input: OpenSuspiciousActivityInput,
): Promise<SuspiciousActivityDto> {
  const id = await db.transaction(async (tx) => {
    const [row] = await tx.select({ id: cases.id, documentMasked: cases.documentMasked }).from(cases).where(caseHere(publicId));
    if (!row) return null;
    const [report] = await tx
      .insert(suspiciousActivityReports)
      .values({
        caseId: row.id,
        casePublicId: publicId,
        connectionId: connectionHere(),
        documentMasked: row.documentMasked,
        summarySealed: sealText(config().secrets.dataEncryption, SUMMARY_PURPOSE, input.summary),
        grounds: input.grounds,
        operations: input.operations ?? [],
        openedBy: context.actor.id,
      })
      .returning({ id: suspiciousActivityReports.id });
    await recordEvent(
      {
        ...reportEvent(context, report!.id),
        action: "coaf.report_open",
        outcome: "success",
        details: { grounds: input.grounds.join(","), operations: input.operations?.length ?? 0 },
      },
      tx,
    );
    return report!.id;
  });
  if (!id) return refused(db, context, "coaf.report_open", publicId, new AppError("not_found", "No case exists for this verification."));
  return (await findReport(db, id))!;
}

/** Records the SISCOAF protocol of a draft; 404 for no such report, 409 when it was already filed. */
export async function fileReport(
  db: Database,
  context: CoafContext,
  id: string,
  input: FileSuspiciousActivityInput,
): Promise<SuspiciousActivityDto> {
  if (!(await findReport(db, id))) throw new AppError("not_found", "No suspicious-activity report has this id.");
  const filed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(suspiciousActivityReports)
      .set({ status: "filed", protocol: input.protocol, filedAt: input.filedAt, filedBy: context.actor.id, filedRecordedAt: new Date() })
      .where(and(eq(suspiciousActivityReports.id, id), eq(suspiciousActivityReports.status, "draft")))
      .returning({ id: suspiciousActivityReports.id });
    if (!row) return false;
    await recordEvent(
      {
        ...reportEvent(context, id),
        action: "coaf.report_filed",
        outcome: "success",
        details: { protocol: input.protocol, filedAt: input.filedAt.toISOString() },
      },
      tx,
    );
    return true;
  });
  if (!filed) return refused(db, context, "coaf.report_filed", id, new AppError("conflict", "This report was already filed."));
  return (await findReport(db, id))!;
}

const decidedAt = sql<Date | null>`case when ${cases.outcomeState} = 'confirmed' then ${cases.confirmedAt}
  when ${cases.outcomeState} = 'recorded' then ${cases.outcomeAt} else null end`;

const columns = {
  report: suspiciousActivityReports,
  caseOpenedAt: cases.openedAt,
  caseDecidedAt: decidedAt,
};

type ReportRow = { report: typeof suspiciousActivityReports.$inferSelect; caseOpenedAt: Date | null; caseDecidedAt: Date | string | null };

function toDto(row: ReportRow, now: Date): SuspiciousActivityDto {
  const { report } = row;
  const start = row.caseDecidedAt ? new Date(row.caseDecidedAt) : (row.caseOpenedAt ?? report.openedAt);
  const deadline = new Date(start.getTime() + config().coafReportDeadlineDays * DAY_MS);
  return {
    id: report.id,
    status: report.status,
    casePublicId: report.casePublicId,
    documentMasked: report.documentMasked,
    summary: openSummary(report.summarySealed),
    grounds: report.grounds as CoafGround[],
    operations: report.operations,
    openedAt: report.openedAt.toISOString(),
    openedBy: report.openedBy,
    deadline: deadline.toISOString(),
    overdue: report.status === "draft" && deadline.getTime() < now.getTime(),
    protocol: report.protocol,
    filedAt: report.filedAt?.toISOString() ?? null,
  };
}

/** One report of this connection, or null (an id that is no UUID too). */
export async function findReport(db: Database, id: string): Promise<SuspiciousActivityDto | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select(columns)
    .from(suspiciousActivityReports)
    .leftJoin(cases, eq(cases.id, suspiciousActivityReports.caseId))
    .where(and(eq(suspiciousActivityReports.id, id), eq(suspiciousActivityReports.connectionId, connectionHere())));
  return row ? toDto(row, new Date()) : null;
}

/** This connection's reports, drafts first then the latest filed, each with its deadline and whether it is overdue. */
export async function listReports(db: Database, now = new Date()): Promise<{ reports: SuspiciousActivityDto[]; deadlineDays: number }> {
  const rows = await db
    .select(columns)
    .from(suspiciousActivityReports)
    .leftJoin(cases, eq(cases.id, suspiciousActivityReports.caseId))
    .where(eq(suspiciousActivityReports.connectionId, connectionHere()))
    .orderBy(sql`${suspiciousActivityReports.status} = 'filed'`, desc(suspiciousActivityReports.openedAt))
    .limit(LIST_LIMIT);
  return { reports: rows.map((row) => toDto(row, now)), deadlineDays: config().coafReportDeadlineDays };
}

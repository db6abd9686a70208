import "server-only";

import { and, arrayOverlaps, asc, eq, inArray, notLike, or } from "drizzle-orm";
import { createTranslator } from "next-intl";

import { audited, type RequestContext } from "@/lib/audit-trail/server";
import type { ChainedFields } from "@/lib/audit-trail/server/group-commit";
import { eventColumns } from "@/lib/audit-trail/server/query";
import { cpfHashes, maskCpf } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { staffUsers } from "@/lib/auth/server/tables";
import { getCase } from "@/lib/cases/server/detail";
import { caseQueues, cases, searchIndexErased, verificationIndex } from "@/lib/cases/server/tables";
import type { CaseEntry } from "@/lib/cases/types";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import type { Locale } from "@/lib/i18n/locales";
import type { ReportCase, ReportErasure, ReportFormat, ReportProcessing, ReportStored, TitularReport } from "@/lib/privacy/titular";
import { documentCrops } from "@/lib/verifications/server/tables";
import { verificationEvents } from "@/lib/webhooks/server/tables";
import enAudit from "@/messages/en/audit.json";
import en from "@/messages/en/privacy.json";
import ptBRAudit from "@/messages/pt-BR/audit.json";
import ptBR from "@/messages/pt-BR/privacy.json";

import { privacyErasures } from "./tables";

/*
 * The titular report (LGPD art. 18 II, art. 19): for one CPF, every processing of that person's data the
 * audit trail holds, oldest first, and what the dashboard stores about them today.
 *
 * A person's events are found two ways, both without the CPF itself:
 * - by the keyed hash the trail stores as `target_hash` (lookups, KYC sessions, CPF searches, verifications whose
 *   CPF was known: creation, views, images, exports' per-person `verification.export_subject` events), under
 *   every key of the audit ring (`cpfHashes`);
 * - by the public ids the search index maps to that hash: every event targeting one of those verifications (case
 *   work, the provider's webhooks, views recorded before the CPF was known).
 * Stored today: the index entries, the cases (read through the case module, which opens sealed notes), the
 * document crops and the provider's events about those verifications. Notes and comments are counted with their
 * dates, never quoted. And whether the person's data was erased on request: each confirmed erasure (its request's
 * id, who asked, who confirmed, when), found by the request's hashes or by those the search index keeps out.
 */

/** A report lists at most this many processings (the oldest), and says when there were more. */
export const MAX_PROCESSINGS = 5000;

const CATALOGUES = { en: { privacy: en, audit: enAudit }, "pt-BR": { privacy: ptBR, audit: ptBRAudit } } satisfies Record<Locale, unknown>;

// next-intl's translators are typed by key; these keys are built from action names, so they are read loosely.
export type Translate = ((key: string, values?: Record<string, string | number>) => string) & { has: (key: string) => boolean };

/** The report's messages in `locale`: the privacy namespace and the audit trail's action labels. */
export function reportMessages(locale: Locale): { t: Translate; action: (name: string) => string } {
  const messages = CATALOGUES[locale];
  const t = createTranslator({ locale, messages, namespace: "privacy" }) as unknown as Translate;
  const actions = createTranslator({ locale, messages, namespace: "audit.actions" }) as unknown as Translate;
  return { t, action: (name) => (actions.has(name) ? actions(name) : name) };
}

const PURPOSE_AREAS = new Set(["verification", "case", "lookup", "kyc", "sms", "search", "webhook", "audit", "privacy"]);

/** An event as the trail stores it, with its id; the report leaves out the target's hash. */
type AuditRow = Omit<ChainedFields, "targetHash"> & { id: number };

/** The person's verifications: the index entries under any of their hashes. */
async function indexEntriesOf(db: Database, hashes: string[]) {
  return db
    .select({
      publicId: verificationIndex.publicId,
      refId: verificationIndex.refId,
      documentMasked: verificationIndex.documentMasked,
      createdHere: verificationIndex.createdHere,
      updatedAt: verificationIndex.updatedAt,
    })
    .from(verificationIndex)
    .where(inArray(verificationIndex.cpfHash, hashes))
    .orderBy(asc(verificationIndex.updatedAt), asc(verificationIndex.publicId));
}

async function eventsOf(db: Database, hashes: string[], publicIds: string[]): Promise<AuditRow[]> {
  const aboutVerification = publicIds.length
    ? and(eq(auditEvents.targetType, "verification"), inArray(auditEvents.target, publicIds))
    : undefined;
  const rows = await db
    .select(eventColumns)
    .from(auditEvents)
    // Never a suspicious-activity report's event, however it came to name the person (Lei 9.613/98 art. 11 §2: the
    // person is not told of a report to COAF; docs/compliance.md#coaf). Their table is never read here either.
    .where(and(or(inArray(auditEvents.targetHash, hashes), aboutVerification), notLike(auditEvents.action, "coaf.%")))
    .orderBy(asc(auditEvents.at), asc(auditEvents.id))
    .limit(MAX_PROCESSINGS + 1);
  return rows as AuditRow[];
}

/** An intent whose outcome is also listed says nothing more: the outcome names it (`details.intent`). */
function withoutSettledIntents(rows: AuditRow[]): AuditRow[] {
  const settled = new Set(rows.map((row) => row.details.intent).filter((intent): intent is number => typeof intent === "number"));
  return rows.filter((row) => !(row.outcome === "intent" && settled.has(row.id)));
}

async function staffNames(db: Database, ids: string[]): Promise<Map<string, { name: string | null; email: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: staffUsers.id, name: staffUsers.name, email: staffUsers.email })
    .from(staffUsers)
    .where(inArray(staffUsers.id, ids));
  return new Map(rows.map((row) => [row.id, { name: row.name.trim() || null, email: row.email }]));
}

async function processingsOf(db: Database, rows: AuditRow[], locale: Locale): Promise<ReportProcessing[]> {
  const { t, action } = reportMessages(locale);
  const staff = await staffNames(db, [...new Set(rows.flatMap((row) => (row.actorId ? [row.actorId] : [])))]);
  return rows.map((row) => {
    const area = row.action.split(".")[0] ?? "";
    const known = row.actorId ? staff.get(row.actorId) : undefined;
    return {
      id: row.id,
      at: row.at.toISOString(),
      action: row.action,
      label: action(row.action),
      actor: row.actorId || row.actorEmail ? { name: known?.name ?? null, email: known?.email ?? row.actorEmail } : null,
      ip: row.ip,
      purpose: row.purpose ?? t(`purposes.${PURPOSE_AREAS.has(area) ? area : "other"}`),
      outcome: row.outcome,
      target: row.targetType && row.target ? { type: row.targetType, id: row.target } : null,
    };
  });
}

const COMMENT_KINDS = new Set<CaseEntry["kind"]>(["outcome", "confirmation"]);

function counted(entries: CaseEntry[]): { count: number; dates: string[] } {
  return { count: entries.length, dates: entries.map((entry) => entry.at) };
}

/** The person's cases, read through the case module (its read opens what is sealed at rest). */
async function casesOf(db: Database, publicIds: string[]): Promise<ReportCase[]> {
  if (publicIds.length === 0) return [];
  const rows = await db
    .select({ publicId: cases.publicId })
    .from(cases)
    .where(inArray(cases.publicId, publicIds))
    .orderBy(asc(cases.openedAt));
  const details = (await Promise.all(rows.map((row) => getCase(db, null, row.publicId)))).filter((detail) => detail !== null);
  const queueIds = [...new Set(details.map((detail) => detail.queueId))];
  const queues = queueIds.length
    ? await db.select({ id: caseQueues.id, name: caseQueues.name }).from(caseQueues).where(inArray(caseQueues.id, queueIds))
    : [];
  const queueName = new Map(queues.map((queue) => [queue.id, queue.name]));
  return details.map((detail) => ({
    publicId: detail.publicId,
    status: detail.status,
    queue: queueName.get(detail.queueId) ?? null,
    openedAt: detail.openedAt,
    dueAt: detail.dueAt,
    closedAt: detail.closedAt,
    recommendation: detail.recommendation,
    // A note on one of the case's monitoring alerts is a note on the case (lib/monitoring/server/notes.ts).
    notes: counted(detail.entries.filter((entry) => entry.kind === "note" || entry.kind === "monitoring_note")),
    comments: counted(detail.entries.filter((entry) => COMMENT_KINDS.has(entry.kind) && entry.text !== null && entry.text !== "")),
  }));
}

async function storedAbout(db: Database, index: Awaited<ReturnType<typeof indexEntriesOf>>): Promise<ReportStored> {
  const publicIds = index.map((entry) => entry.publicId);
  const [caseList, crops, providerEvents] = await Promise.all([
    casesOf(db, publicIds),
    publicIds.length
      ? db
          .select({ publicId: documentCrops.publicId, setAt: documentCrops.setAt })
          .from(documentCrops)
          .where(inArray(documentCrops.publicId, publicIds))
          .orderBy(asc(documentCrops.setAt))
      : [],
    publicIds.length
      ? db
          .select({
            publicId: verificationEvents.publicId,
            event: verificationEvents.event,
            status: verificationEvents.status,
            identityScore: verificationEvents.identityScore,
            fraudScore: verificationEvents.fraudScore,
            occurredAt: verificationEvents.occurredAt,
          })
          .from(verificationEvents)
          .where(inArray(verificationEvents.publicId, publicIds))
          .orderBy(asc(verificationEvents.occurredAt), asc(verificationEvents.id))
      : [],
  ]);
  return {
    indexEntries: index.map((entry) => ({ ...entry, updatedAt: entry.updatedAt.toISOString() })),
    cases: caseList,
    crops: crops.map((crop) => ({ publicId: crop.publicId, setAt: crop.setAt.toISOString() })),
    providerEvents: providerEvents.map((event) => ({ ...event, occurredAt: event.occurredAt.toISOString() })),
  };
}

/** The confirmed erasures of the person, by the hashes of their CPF (the request's, or those the index keeps out). */
async function erasuresOf(db: Database, hashes: string[]): Promise<ReportErasure[]> {
  const remembered = await db
    .selectDistinct({ id: searchIndexErased.erasureId })
    .from(searchIndexErased)
    .where(inArray(searchIndexErased.cpfHash, hashes));
  const byHash = arrayOverlaps(privacyErasures.cpfHashes, hashes);
  const rows = await db
    .select()
    .from(privacyErasures)
    .where(
      and(
        eq(privacyErasures.state, "confirmed"),
        remembered.length
          ? or(
              byHash,
              inArray(
                privacyErasures.id,
                remembered.map((row) => row.id),
              ),
            )
          : byHash,
      ),
    )
    .orderBy(asc(privacyErasures.decidedAt));
  const staff = await staffNames(db, [...new Set(rows.flatMap((row) => [row.requestedBy, ...(row.decidedBy ? [row.decidedBy] : [])]))]);
  const actor = (id: string) => ({ name: staff.get(id)?.name ?? null, email: staff.get(id)?.email ?? null });
  return rows.map((row) => ({
    id: row.id,
    requestedAt: row.requestedAt.toISOString(),
    requestedBy: actor(row.requestedBy),
    confirmedAt: (row.decidedAt ?? row.requestedAt).toISOString(),
    confirmedBy: row.decidedBy ? actor(row.decidedBy) : null,
  }));
}

/** The report for `cpf` (11 digits), its labels and purposes in `locale`. Reads only; see `requestTitularReport`. */
export async function buildTitularReport(
  db: Database,
  cpf: string,
  { locale, now = new Date() }: { locale: Locale; now?: Date },
): Promise<TitularReport> {
  const hashes = cpfHashes(cpf);
  const index = await indexEntriesOf(db, hashes);
  const publicIds = index.map((entry) => entry.publicId);
  const rows = await eventsOf(db, hashes, publicIds);
  const truncated = rows.length > MAX_PROCESSINGS;
  const [processings, stored, erasures] = await Promise.all([
    processingsOf(db, withoutSettledIntents(rows.slice(0, MAX_PROCESSINGS)), locale),
    storedAbout(db, index),
    erasuresOf(db, hashes),
  ]);
  return {
    generatedAt: now.toISOString(),
    locale,
    timeZone: config().displayTimeZone,
    cpfMasked: maskCpf(cpf),
    verifications: publicIds,
    processings,
    truncated,
    stored,
    erasures,
  };
}

/**
 * The report as the member asks for it: an audited read (`privacy.report`), the CPF on the trail as its mask
 * and keyed hash (the target), never in clear; the answer leaves only once that record is written.
 */
export async function requestTitularReport(
  db: Database,
  context: RequestContext,
  { cpf, format, locale }: { cpf: string; format: ReportFormat; locale: Locale },
): Promise<TitularReport> {
  return audited(
    context,
    {
      action: "privacy.report",
      target: { type: "cpf", cpf },
      details: { format, locale },
      detailsOf: (report) => ({
        processings: report.processings.length,
        verifications: report.verifications.length,
        cases: report.stored.cases.length,
        truncated: report.truncated,
      }),
    },
    () => buildTitularReport(db, cpf, { locale }),
  );
}

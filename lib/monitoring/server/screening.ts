import "server-only";

import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";

import { cpfHash } from "@/lib/audit-trail/server";
import { cases } from "@/lib/cases/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { acquireLease, releaseLease } from "@/lib/db/lease";
import { log } from "@/lib/log";
import type { ScreeningRunResult } from "@/lib/monitoring/types";
import { cpfDigits, isValidCpf, maskCpf } from "@/lib/shared/cpf";
import { meterUpstreamCalls } from "@/lib/upstream/call-count";
import type { CoreClient } from "@/lib/upstream/core";
import { DECEASED_FIELDS, type Verification } from "@/lib/upstream/model/verification";
import type { PartnersClient } from "@/lib/upstream/partners";

import { alertRouter, dispatchOpenedAlerts } from "./routing";
import { readBudget, spendBudget } from "./settings";
import { monitoringAlerts, monitoringScreenings } from "./tables";

/*
 * Ongoing screening (issue 34, item 2; docs/compliance.md, "Ongoing screening"). People whose case the dashboard
 * approved (recommendation `approve`, effective: recorded or confirmed) are looked up again, the longest unscreened
 * first, within the day's budget of upstream calls (./settings.ts). Per person:
 *
 * 1. the verification, read again through the core API (its connection's key): PEP, restrictive lists, a death field
 *    when present, and the document (the CPF in clear only where the key may see it; the dashboard never stores it);
 * 2. with that CPF, the CPF enrichment (`GET /kyc/cpf-history`, the partners client operators' lookups use): PEP
 *    and death as the federal data says today.
 *
 * The facts are compared with the last screening's (the first time: with the case's red flags at approval, so what
 * was known when the person was approved is not news); each new fact (PEP, a list not seen before, a death) opens a
 * monitoring alert, one open alert per change and verification (the partial unique index: a second instance, or a
 * second run, cannot open it twice; once it is closed, the same change seen again after it went away is news again). Every HTTP attempt counts against the budget (meterUpstreamCalls), and a step starts only while the
 * budget left covers its worst case (retries, a partners login), so a run never spends more than the budget.
 * One run at a time across instances: the lease.
 */

export const SCREENING_LEASE = "monitoring.screen";
const LEASE_TTL_MS = 30 * 60_000;
/** A person screened less than this long ago waits: the budget goes to those screened longest ago. */
const DEFAULT_RESCREEN_AFTER_MS = 24 * 3_600_000;

export interface ScreeningClients {
  core: CoreClient;
  /** Null: the connection has no partners account (only the verification is read). */
  partners: PartnersClient | null;
}

/** Runs `work` speaking as one connection, with its clients. */
export type Speaker = <T>(work: (clients: ScreeningClients) => Promise<T>) => Promise<T>;

export interface ScreeningOptions {
  holder: string;
  /** The lease's minimum gap between runs' starts (0 on demand). */
  minGapMs: number;
  /** How to speak as a connection; null when it is gone (its people wait). */
  speakerOf: (connectionId: string) => Promise<Speaker | null>;
  /** Attempts one read may take at worst (1 + UPSTREAM_READ_RETRIES). */
  attemptsPerRead: number;
  /** The day the budget counts (the display time zone). */
  timeZone: string;
  /** At most this many people in this run (the budget decides when it is lower). */
  limit?: number;
  rescreenAfterMs?: number;
  now?: Date;
  /**
   * Wraps the lookups once there is someone to screen and budget to do it: a scheduled run's audit intent goes there,
   * so an idle look writes nothing. A run on demand is audited whole by its route instead.
   */
  whenScreening?: (work: () => Promise<ScreeningReport>) => Promise<ScreeningReport>;
}

/** What a run did: the answer of POST /api/monitoring/run (lib/monitoring/types.ts). */
export type ScreeningReport = ScreeningRunResult;

interface Facts {
  pep: boolean;
  lists: string[];
  deceased: boolean;
}

interface Due {
  publicId: string;
  connectionId: string;
  flags: string[];
  documentMasked: string | null;
  previous: Facts | null;
}

/** The facts a verification states: PEP (flag or origin), list names, a death field (DECEASED_FIELDS) when present. */
function factsOf(verification: Verification): Facts {
  const lists = verification.restrictiveLists.map((entry) => entry.name ?? entry.source ?? "unnamed");
  return {
    pep: verification.person.pep === true || (verification.pepOrigin !== null && verification.pepOrigin !== ""),
    lists: [...new Set(lists)].sort(),
    deceased: DECEASED_FIELDS.some((field) => verification.extra[field] === true),
  };
}

/** What was known when the person was approved: the case's red flags (lists by name are not known then). */
function baselineOf(due: Due, now: Facts): Facts {
  return {
    pep: due.flags.includes("pep"),
    lists: due.flags.includes("restrictive_list") ? now.lists : [],
    deceased: due.flags.includes("deceased"),
  };
}

/** The alerts' changes between two sets of facts: `pep`, `deceased`, `list:<name>`. */
export function changesBetween(before: Facts, now: Facts): string[] {
  const changes: string[] = [];
  if (now.pep && !before.pep) changes.push("pep");
  for (const list of now.lists) if (!before.lists.includes(list)) changes.push(`list:${list}`);
  if (now.deceased && !before.deceased) changes.push("deceased");
  return changes;
}

async function duePeople(db: Database, limit: number, before: Date): Promise<Due[]> {
  const rows = await db
    .select({
      publicId: cases.publicId,
      connectionId: cases.connectionId,
      flags: cases.flags,
      documentMasked: cases.documentMasked,
      screenedAt: monitoringScreenings.lastScreenedAt,
      pep: monitoringScreenings.pep,
      lists: monitoringScreenings.lists,
      deceased: monitoringScreenings.deceased,
    })
    .from(cases)
    .leftJoin(monitoringScreenings, eq(monitoringScreenings.publicId, cases.publicId))
    .where(
      and(
        eq(cases.recommendation, "approve"),
        inArray(cases.outcomeState, ["recorded", "confirmed"]),
        // An erased person is not looked up again (lib/privacy/server/erasure.ts).
        isNull(cases.erasedAt),
        or(isNull(monitoringScreenings.lastScreenedAt), lte(monitoringScreenings.lastScreenedAt, before)),
      ),
    )
    .orderBy(sql`${monitoringScreenings.lastScreenedAt} asc nulls first`, asc(cases.outcomeAt), asc(cases.publicId))
    .limit(limit);
  return rows.map((row) => ({
    publicId: row.publicId,
    connectionId: row.connectionId,
    flags: row.flags,
    documentMasked: row.documentMasked,
    previous: row.screenedAt ? { pep: row.pep ?? false, lists: row.lists ?? [], deceased: row.deceased ?? false } : null,
  }));
}

interface Looked {
  calls: number;
  facts: Facts | null;
  cpf: string | null;
  documentMasked: string | null;
  cpfChecked: boolean;
}

/** One person's lookups, each started only while `left` covers its worst case. */
async function lookUp(clients: ScreeningClients, due: Due, left: number, attemptsPerRead: number): Promise<Looked> {
  const read = await meterUpstreamCalls(() => clients.core.getVerification(due.publicId));
  const looked: Looked = { calls: read.calls, facts: null, cpf: null, documentMasked: due.documentMasked, cpfChecked: false };
  if ("error" in read) {
    log.warn("monitoring_screen_failed", { step: "verification", error: read.error });
    return looked;
  }
  const verification = read.result;
  const facts = factsOf(verification);
  looked.facts = facts;
  if (verification.documentMasked || !isValidCpf(verification.document)) return looked;
  looked.cpf = cpfDigits(verification.document);
  looked.documentMasked = maskCpf(looked.cpf);
  // The enrichment: one read, and a partners login when its token has run out.
  if (!clients.partners || left - looked.calls < attemptsPerRead + 1) return looked;
  const history = await meterUpstreamCalls(() => clients.partners!.cpfHistory(looked.cpf!));
  looked.calls += history.calls;
  if ("error" in history) {
    log.warn("monitoring_screen_failed", { step: "cpf_history", error: history.error });
    return looked;
  }
  looked.cpfChecked = true;
  facts.pep ||= history.result.pep === true;
  facts.deceased ||= history.result.deceased === true;
  return looked;
}

/** Keeps the facts seen and opens an alert per change, routed to its queue (./routing.ts); answers the alerts opened. */
async function record(db: Database, due: Due, looked: Looked & { facts: Facts }, now: Date): Promise<string[]> {
  const before = due.previous ?? baselineOf(due, looked.facts);
  const changes = changesBetween(before, looked.facts);
  const key = config().secrets.auditHash.current;
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const screening = {
      connectionId: due.connectionId,
      cpfHash: looked.cpf ? cpfHash(looked.cpf, key.secret) : null,
      cpfKeyId: looked.cpf ? key.id : null,
      documentMasked: looked.documentMasked,
      lastScreenedAt: now,
      pep: looked.facts.pep,
      lists: looked.facts.lists,
      deceased: looked.facts.deceased,
      cpfChecked: looked.cpfChecked,
    };
    await tx
      .insert(monitoringScreenings)
      .values({ publicId: due.publicId, ...screening })
      .onConflictDoUpdate({ target: monitoringScreenings.publicId, set: screening });
    if (changes.length === 0) return [];
    const queueOf = await alertRouter(tx, now);
    const opened = await tx
      .insert(monitoringAlerts)
      .values(
        changes.map((change) => ({
          publicId: due.publicId,
          connectionId: due.connectionId,
          documentMasked: looked.documentMasked,
          change,
          queueId: queueOf({ change, detectedAt: now }),
          details: { before, now: looked.facts },
          detectedAt: now,
        })),
      )
      .onConflictDoNothing({
        target: [monitoringAlerts.publicId, monitoringAlerts.change],
        where: sql`${monitoringAlerts.status} = 'open'`,
      })
      .returning({ id: monitoringAlerts.id });
    return opened.map((alert) => alert.id);
  });
}

/** One run under the lease; `ran: false` when another instance holds it (or, scheduled, ran lately). */
export async function runScreening(db: Database, options: ScreeningOptions): Promise<ScreeningReport> {
  const now = options.now ?? new Date();
  const budget = await readBudget(db, options.timeZone, now);
  const report: ScreeningReport = {
    ran: false,
    screened: 0,
    failed: 0,
    alertsOpened: 0,
    calls: 0,
    budget: budget.dailyBudget,
    budgetLeft: budget.left,
  };
  const taken = await acquireLease(db, {
    name: SCREENING_LEASE,
    holder: options.holder,
    ttlMs: LEASE_TTL_MS,
    minGapMs: options.minGapMs,
    now,
  });
  if (!taken) return report;
  report.ran = true;
  try {
    // Read again under the lease: a run that ended meanwhile spent some of it.
    let left = (await readBudget(db, options.timeZone, now)).left;
    const maxPeople = Math.min(options.limit ?? Number.MAX_SAFE_INTEGER, Math.floor(left / options.attemptsPerRead));
    if (maxPeople <= 0) return { ...report, budgetLeft: left };
    const before = new Date(now.getTime() - (options.rescreenAfterMs ?? DEFAULT_RESCREEN_AFTER_MS));
    const due = await duePeople(db, maxPeople, before);
    if (due.length === 0) return { ...report, budgetLeft: left };
    const screen = async () => {
      const speakers = new Map<string, Speaker | null>();
      for (const person of due) {
        if (left < options.attemptsPerRead) break;
        if (!speakers.has(person.connectionId)) speakers.set(person.connectionId, await options.speakerOf(person.connectionId));
        const speak = speakers.get(person.connectionId);
        if (!speak) continue;
        const looked = await speak((clients) => lookUp(clients, person, left, options.attemptsPerRead));
        left = (await spendBudget(db, options.timeZone, now, looked.calls)).left;
        report.calls += looked.calls;
        if (!looked.facts) {
          report.failed += 1;
          continue;
        }
        const opened = await record(db, person, { ...looked, facts: looked.facts }, now);
        report.alertsOpened += opened.length;
        // Committed: each is auto-assigned when the team's switch is on, else its queue's leads are told.
        await dispatchOpenedAlerts(db, opened, now);
        report.screened += 1;
      }
      return { ...report, budgetLeft: left };
    };
    return await (options.whenScreening ? options.whenScreening(screen) : screen());
  } finally {
    await releaseLease(db, SCREENING_LEASE, options.holder, new Date());
  }
}

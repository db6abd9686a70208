import "server-only";

import { randomUUID } from "node:crypto";

import { getTableName, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

import { recordEvent } from "@/lib/audit-trail/server";
import { caseEntries, cases } from "@/lib/cases/server/tables";
import { config } from "@/lib/config";
import { getDb, queryRows, type Database } from "@/lib/db/client";
import { acquireLease, leaseState, releaseLease, renewLease, saveLeaseState } from "@/lib/db/lease";
import { startLeasedJob } from "@/lib/db/leased-job";
import { isSealedText, openText, sealedTextKeyId, sealText, type KeyRing } from "@/lib/keys/ring";
import { SEALED_RECORD_TEXTS } from "@/lib/keys/sealed-records";
import { log } from "@/lib/log";

import { PERSON_NAME_LEGACY, resealStep, type LegacyClear, type ResealStep } from "./sealed-text";

/*
 * The re-seal job: brings every stored case text (notes, outcome and confirmation texts, outcome comments),
 * every case's person name and the texts of records kept for years (lib/keys/sealed-records.ts: reports to COAF,
 * titular requests) under the data ring's current key. Clear rows written before sealing existed are sealed; rows sealed under
 * an older key the ring still holds are opened and sealed again. After a rotation, once a run has moved every
 * row (`remaining` 0 on its audit event), the old key can leave the ring (docs/operations.md, "Rotating the
 * data key").
 *
 * Only rows not already under the current key are read (their envelope's prefix, in SQL), in batches by id,
 * so a run's cost follows what is left to do. Each row is replaced with a compare-and-set on its old value:
 * a note erased or edited meanwhile is never overwritten. A row that does not open (its key gone from the
 * ring, or altered) is left as it is and counted. Every instance schedules the job; a lease in the database
 * (lib/db/lease.ts) makes one of them run it per interval, and each run that changed something (a text, or clear
 * text retired: below), failed or left texts not under the current key is one `case.text_reseal` audit event with
 * counts and key ids, never a text (a run with nothing to do leaves none; the metrics count every run).
 *
 * Clear text from before sealing is sealed only until none is left: the first run that leaves no clear row in
 * either text column records `clearTextRetired` in its state, and from then on a value without an envelope is not read
 * as text (./sealed-text.ts) nor sealed by a later run (it is counted as unreadable and left as it is). The person's
 * name was sealed from its column's first day: a name without an envelope is never sealed (PERSON_NAME_LEGACY).
 */

export const RESEAL_LEASE = "case-text-reseal";
const LEASE_TTL_MS = 10 * 60_000;
const BATCH = 200;
// Per column and run, so one run stays bounded; what is left waits for the next run.
const MAX_BATCHES = 50;

export interface ResealCounts {
  entriesSealed: number;
  entriesResealed: number;
  commentsSealed: number;
  commentsResealed: number;
  /** Person names moved from an older key (never sealed from clear: the column had no clear rows). */
  namesResealed: number;
  /** Texts of kept records (lib/keys/sealed-records.ts) moved from an older key; like names, never sealed from clear. */
  recordsResealed: number;
  /** Rows left as they are: sealed under a key the ring no longer holds, or altered. */
  unreadable: number;
  /** Rows still not under the current key when the run ended: unreadable ones, and any past the run's bound. */
  remaining: number;
}

export type ResealReport = { ran: false } | { ran: true; keyId: string; counts: ResealCounts };

export interface ResealOptions {
  holder: string;
  /** The ring to seal under; the configured data key ring by default. */
  ring?: KeyRing;
  /** Refuse while the last run started less than this ago (the schedule's interval); 0 on demand. */
  minGapMs?: number;
  batchSize?: number;
  maxBatches?: number;
  now?: Date;
}

/** One text column, read in batches by id and written back with a compare-and-set. */
interface TextColumn {
  /** What the job does with one stored value (./sealed-text.ts: resealStep, or recordStep below). */
  step(stored: string | null, legacyClear: LegacyClear, ring: KeyRing): ResealStep;
  text: SQL;
  page(notUnder: SQL, after: string | null, limit: number): Promise<Array<{ id: string; text: string | null }>>;
  replace(id: string, stored: string, value: string): Promise<boolean>;
  countLeft(notUnder: SQL): Promise<number>;
}

/** Where a sealed text lives: its table, the table's key and the column, by their names in the database. */
interface TextPlace {
  table: string;
  id: string;
  column: string;
  idType: "uuid" | "bigint";
}

/** Values without an envelope (clear text): what must be gone before clear text is retired. */
function unsealed(text: SQL): SQL {
  return sql`left(${text}, 3) <> 'v1.'`;
}

/**
 * One sealed text column, by its place. Ids come back as text (a bigint is too) and go back cast to their type. Only
 * the text is written: not `updated_at`, since the words are the same and only their envelope changed; a value the
 * sync rewrote, an erasure cleared or a member edited meanwhile is left to its new value by the compare-and-set.
 */
function textColumn(db: Database, place: TextPlace, step: TextColumn["step"]): TextColumn {
  const table = sql.identifier(place.table);
  const id = sql.identifier(place.id);
  const text = sql`${sql.identifier(place.column)}`;
  const key = (value: string) => sql`${value}::${sql.raw(place.idType)}`;
  return {
    step,
    text,
    page: (notUnder, after, limit) =>
      queryRows<{ id: string; text: string | null }>(
        db,
        sql`select ${id}::text as id, ${text} as text from ${table} where ${text} is not null and ${notUnder}
            ${after === null ? sql`` : sql`and ${id} > ${key(after)}`} order by ${id} limit ${limit}`,
      ),
    replace: async (rowId, stored, value) =>
      (await queryRows(db, sql`update ${table} set ${text} = ${value} where ${id} = ${key(rowId)} and ${text} = ${stored} returning ${id}`))
        .length === 1,
    countLeft: async (notUnder) =>
      Number(
        (
          await queryRows<{ count: number }>(db, sql`select count(*)::int as count from ${table} where ${text} is not null and ${notUnder}`)
        )[0]?.count ?? 0,
      ),
  };
}

/** A case table's text column, by the schema's own names for it. */
function casePlace(table: typeof cases | typeof caseEntries, column: AnyPgColumn): TextPlace {
  return { table: getTableName(table), id: table.id.name, column: column.name, idType: table === caseEntries ? "bigint" : "uuid" };
}

/** A kept record's text: sealed from its first write, so a value without an envelope or that does not open is left. */
function recordStep(purpose: string, stored: string | null, ring: KeyRing): ResealStep {
  if (stored === null || sealedTextKeyId(stored) === ring.current.id) return { kind: "none" };
  const text = isSealedText(stored) ? openText(ring, purpose, stored) : null;
  if (text === null) return { kind: "unreadable", keyId: sealedTextKeyId(stored) ?? "" };
  return { kind: "reseal", value: sealText(ring, purpose, text) };
}

/** The columns the job moves: the case texts, the person's name, and each kept record's sealed column. */
function textColumns(db: Database) {
  return {
    entries: textColumn(db, casePlace(caseEntries, caseEntries.text), (stored, legacyClear, ring) =>
      resealStep("entry", stored, legacyClear, ring),
    ),
    comments: textColumn(db, casePlace(cases, cases.outcomeComment), (stored, legacyClear, ring) =>
      resealStep("outcomeComment", stored, legacyClear, ring),
    ),
    names: textColumn(db, casePlace(cases, cases.personName), (stored, legacyClear, ring) =>
      resealStep("personName", stored, legacyClear, ring),
    ),
    // By the table and column lib/keys/sealed-records.ts names (no import of their features).
    records: Object.values(SEALED_RECORD_TEXTS).map((spec) =>
      textColumn(db, { table: spec.table, id: spec.id, column: spec.column, idType: "uuid" }, (stored, _legacyClear, ring) =>
        recordStep(spec.purpose, stored, ring),
      ),
    ),
  };
}

/** Not sealed under `keyId`: compares the envelope's prefix (a LIKE would read `_` in a key id as a wildcard). */
function notUnderKey(text: SQL, keyId: string): SQL {
  const prefix = `v1.${keyId}.`;
  return sql`left(${text}, ${prefix.length}) <> ${prefix}`;
}

interface ColumnCounts {
  sealed: number;
  resealed: number;
  unreadable: number;
  remaining: number;
}

async function resealColumn(
  db: Database,
  column: TextColumn,
  ring: KeyRing,
  legacyClear: LegacyClear,
  lease: { name: string; holder: string; ttlMs: number },
  limits: { batchSize: number; maxBatches: number },
): Promise<ColumnCounts> {
  const counts: ColumnCounts = { sealed: 0, resealed: 0, unreadable: 0, remaining: 0 };
  const notUnder = notUnderKey(column.text, ring.current.id);
  let after: string | null = null;
  for (let batch = 0; batch < limits.maxBatches; batch += 1) {
    const rows = await column.page(notUnder, after, limits.batchSize);
    for (const row of rows) {
      const step = column.step(row.text, legacyClear, ring);
      if (step.kind === "unreadable") counts.unreadable += 1;
      if (step.kind !== "seal" && step.kind !== "reseal") continue;
      if (await column.replace(row.id, row.text!, step.value)) counts[step.kind === "seal" ? "sealed" : "resealed"] += 1;
    }
    if (rows.length < limits.batchSize) break;
    after = rows.at(-1)!.id;
    // A lost lease (this run outlived it) leaves the rest to whoever holds it now.
    if (!(await renewLease(db, lease))) throw new Error("the re-seal lease was lost");
  }
  counts.remaining = await column.countLeft(notUnder);
  return counts;
}

/** Runs the job once when the lease is free (and, with `minGapMs`, rested). */
export async function resealCaseTexts(db: Database, options: ResealOptions): Promise<ResealReport> {
  const now = options.now ?? new Date();
  const lease = { name: RESEAL_LEASE, holder: options.holder, ttlMs: LEASE_TTL_MS };
  if (!(await acquireLease(db, { ...lease, minGapMs: options.minGapMs ?? 0, now }))) return { ran: false };
  const ring = options.ring ?? config().secrets.dataEncryption;
  const limits = { batchSize: options.batchSize ?? BATCH, maxBatches: options.maxBatches ?? MAX_BATCHES };
  const counts: ResealCounts = {
    entriesSealed: 0,
    entriesResealed: 0,
    commentsSealed: 0,
    commentsResealed: 0,
    namesResealed: 0,
    recordsResealed: 0,
    unreadable: 0,
    remaining: 0,
  };
  const add = (prefix: "entries" | "comments" | "names" | "records", column: ColumnCounts) => {
    if (prefix === "entries" || prefix === "comments") counts[`${prefix}Sealed`] += column.sealed;
    counts[`${prefix}Resealed`] += column.resealed;
    counts.unreadable += column.unreadable;
    counts.remaining += column.remaining;
  };
  const started = Date.now();
  let failure: unknown = null;
  // This run recorded clear text retired: from now on a value without an envelope is refused, not read as text.
  let retiredClearText = false;
  try {
    const legacyClear = await legacyClearText(db);
    const columns = textColumns(db);
    add("entries", await resealColumn(db, columns.entries, ring, legacyClear, lease, limits));
    add("comments", await resealColumn(db, columns.comments, ring, legacyClear, lease, limits));
    add("names", await resealColumn(db, columns.names, ring, PERSON_NAME_LEGACY, lease, limits));
    for (const column of columns.records) add("records", await resealColumn(db, column, ring, "retired", lease, limits));
    if (legacyClear === "accepted") {
      const clearable = [columns.entries, columns.comments];
      const left = await Promise.all(clearable.map((column) => column.countLeft(unsealed(column.text))));
      if (left.every((count) => count === 0)) {
        retiredClearText = await saveLeaseState(db, RESEAL_LEASE, options.holder, {
          ...(await leaseState(db, RESEAL_LEASE)),
          clearTextRetired: true,
        });
      }
    }
  } catch (error) {
    failure = error;
  }
  let finished: Date | null = null;
  // A run that found nothing to do (the usual case: every text already under the current key) leaves no
  // event; the trail records runs that changed something (a text, or clear text retired), failed, or left texts
  // not under the current key (ones it could not open, and any past its bound).
  const changed = retiredClearText || Object.values(counts).some((count) => count > 0);
  try {
    if (changed || failure)
      await recordEvent(
        {
          actor: null,
          action: "case.text_reseal",
          outcome: failure ? "failure" : "success",
          details: { keyId: ring.current.id, ...counts, ...(retiredClearText ? { clearTextRetired: true } : {}) },
          at: now,
        },
        db,
      );
    // On the run's own clock (a test's, or the real one), so the schedule's gap is measured from the run.
    finished = failure ? null : new Date(now.getTime() + (Date.now() - started));
  } finally {
    await releaseLease(db, RESEAL_LEASE, options.holder, finished);
  }
  if (failure) throw failure;
  return { ran: true, keyId: ring.current.id, counts };
}

/** Whether a stored value without an envelope may still be clear text from before sealing (./sealed-text.ts). */
export async function legacyClearText(db: Database): Promise<LegacyClear> {
  return (await leaseState(db, RESEAL_LEASE)).clearTextRetired === true ? "retired" : "accepted";
}

const INSTANCE = randomUUID();
// The ring changes only with a restart, so each instance looks once soon after start-up whatever the gap (a
// rotation's new key is then current); later looks are one conditional upsert, and the lease's gap decides
// whether a run is due (it catches rows an instance still on the old ring wrote during a rolling restart).
const FIRST_LOOK_MS = 60_000;
const LOOK_EVERY_MS = 10 * 60_000;
const RUN_GAP_MS = 6 * 3_600_000;

async function runScheduledReseal(minGapMs: number): Promise<ResealReport> {
  return resealCaseTexts(await getDb(), { holder: INSTANCE, minGapMs });
}

/** Starts the schedule once per process (instrumentation.ts; lib/db/leased-job.ts wakes it when a run is due). */
export function startResealSchedule(): void {
  startLeasedJob({
    lease: RESEAL_LEASE,
    gapMs: RUN_GAP_MS,
    firstLookMs: FIRST_LOOK_MS,
    maxSleepMs: LOOK_EVERY_MS,
    run: async ({ first, minGapMs }) => {
      const report = await runScheduledReseal(first ? 0 : minGapMs);
      if (report.ran) log.info("case_text_reseal", { keyId: report.keyId, ...report.counts });
      return report.ran ? "ran" : "idle";
    },
  });
}

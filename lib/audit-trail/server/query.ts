import "server-only";

import { and, desc, eq, gte, inArray, lt, lte, notLike, or, sql, type SQL } from "drizzle-orm";

import { type AuditOutcome } from "@/lib/audit-trail/outcomes";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { AuditEventView, AuditPage, AuditStaff } from "@/lib/audit-trail/types";
import { queryRows, type Database } from "@/lib/db/client";

export type { AuditEventView, AuditPage } from "@/lib/audit-trail/types";

/*
 * Reading the audit trail: filters and keyset pagination, newest first.
 *
 * Order is (at desc, id desc) and a page continues strictly after the last (at, id) it showed, so page N
 * costs the same as page 1 whatever the table size: every equality filter has an index on (column, at)
 * (lib/db/tables.ts), which hands rows over already in `at` order, and the cursor bound `at <= c` is an
 * index condition. No total count is computed: counting a million rows on every page is what would be slow.
 *
 * The cursor carries `at` to the microsecond as PostgreSQL printed it, not a JS Date (milliseconds), so
 * two events within the same millisecond are never skipped or shown twice.
 */

export interface AuditEventFilter {
  /** Email (exact, stored lower-case) or staff id (UUID). */
  actor?: string;
  action?: string;
  targetType?: string;
  target?: string;
  /**
   * HMACs of a CPF (lib/audit-trail/server/record.ts `cpfHashes`: one per key of the audit ring), matched on
   * target_hash; an event matches under any of them.
   */
  targetHashes?: string[];
  outcome?: AuditOutcome;
  /** Recorded under this connection. */
  connection?: string;
  from?: Date;
  toExclusive?: Date;
  /**
   * Leave out every `coaf.*` event (suspicious-activity reports, Lei 9.613/98 art. 11 §2): set for a reader without
   * `coaf.report` (./service.ts), so the trail never tells such a member, and through them the person, of a report.
   */
  withoutCoaf?: boolean;
}

export interface AuditEventExportRow extends AuditEventView {
  prevHash: string;
  hash: string;
}

interface Cursor {
  at: string;
  id: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export class InvalidCursorError extends Error {
  constructor() {
    super("The page cursor is not one this server issued.");
    this.name = "InvalidCursorError";
  }
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`, "utf8").toString("base64url");
}

export function decodeCursor(value: string): Cursor {
  const [at, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
  const numericId = Number(id);
  if (!at || !CURSOR_AT.test(at) || !Number.isSafeInteger(numericId) || numericId < 1) throw new InvalidCursorError();
  return { at, id: numericId };
}

// `at` printed in UTC to the microsecond: the cursor's exact key.
const atExact = sql<string>`to_char(${auditEvents.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function whereOf(filter: AuditEventFilter, cursor?: Cursor): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  if (filter.actor) {
    conditions.push(
      UUID.test(filter.actor)
        ? eq(auditEvents.actorId, filter.actor.toLowerCase())
        : eq(auditEvents.actorEmail, filter.actor.toLowerCase()),
    );
  }
  if (filter.action) conditions.push(eq(auditEvents.action, filter.action));
  if (filter.targetType) conditions.push(eq(auditEvents.targetType, filter.targetType));
  if (filter.target) conditions.push(eq(auditEvents.target, filter.target));
  if (filter.targetHashes) conditions.push(inArray(auditEvents.targetHash, filter.targetHashes));
  if (filter.outcome) conditions.push(eq(auditEvents.outcome, filter.outcome));
  if (filter.connection) conditions.push(eq(auditEvents.connectionId, filter.connection));
  if (filter.withoutCoaf) conditions.push(notLike(auditEvents.action, "coaf.%"));
  if (filter.from) conditions.push(gte(auditEvents.at, filter.from));
  if (filter.toExclusive) conditions.push(lt(auditEvents.at, filter.toExclusive));
  if (cursor) {
    const at = sql`${cursor.at}::timestamptz`;
    // (at, id) < (c.at, c.id), written so that `at <= c.at` can bound an index scan on (…, at).
    conditions.push(lte(auditEvents.at, at), or(lt(auditEvents.at, at), lt(auditEvents.id, cursor.id)));
  }
  const present = conditions.filter((condition): condition is SQL => condition !== undefined);
  return present.length ? and(...present) : undefined;
}

/** An event's columns as its readers show it (the trail's pages and exports, the titular's report). */
export const eventColumns = {
  id: auditEvents.id,
  at: auditEvents.at,
  actorId: auditEvents.actorId,
  actorEmail: auditEvents.actorEmail,
  action: auditEvents.action,
  targetType: auditEvents.targetType,
  target: auditEvents.target,
  purpose: auditEvents.purpose,
  outcome: auditEvents.outcome,
  ip: auditEvents.ip,
  details: auditEvents.details,
  connectionId: auditEvents.connectionId,
};

// atExact third, where it always stood.
const { id: idColumn, at: atColumn, ...laterColumns } = eventColumns;
const viewColumns = { id: idColumn, at: atColumn, atExact, ...laterColumns };

type ViewRow = { [K in keyof typeof viewColumns]: unknown } & { id: number; at: Date; atExact: string };

function toView(row: ViewRow): AuditEventView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorId: (row.actorId as string | null) ?? null,
    actorEmail: (row.actorEmail as string | null) ?? null,
    action: row.action as string,
    targetType: (row.targetType as string | null) ?? null,
    target: (row.target as string | null) ?? null,
    purpose: (row.purpose as string | null) ?? null,
    outcome: row.outcome as AuditOutcome,
    ip: (row.ip as string | null) ?? null,
    details: (row.details as Record<string, unknown> | null) ?? {},
    connectionId: (row.connectionId as string | null) ?? null,
  };
}

/** Ids of the staff a page mentions: each actor, and each target of type `staff`. */
export function staffIdsOf(events: AuditEventView[]): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.actorId) ids.add(event.actorId.toLowerCase());
    if (event.targetType === "staff" && event.target && UUID.test(event.target)) ids.add(event.target.toLowerCase());
  }
  return [...ids];
}

/**
 * Name and current email of the staff a page mentions, by id: one query per page, whatever its length. Read by
 * the table's name (this layer sits below the staff tables' own module) and never joined into the event rows,
 * which stay as recorded; a member since deleted is simply absent, and the page shows the recorded email.
 */
export async function staffOf(db: Database, events: AuditEventView[]): Promise<Record<string, AuditStaff>> {
  const ids = staffIdsOf(events);
  if (ids.length === 0) return {};
  const rows = await queryRows<{ id: string; name: string | null; email: string }>(
    db,
    sql`
    select id::text as id, name, email from staff_users
    where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return Object.fromEntries(rows.map((row) => [row.id, { name: row.name?.trim() || null, email: row.email }]));
}

/** One page of events, newest first, continuing after `cursor` when given, with the staff it names. */
export async function listAuditEvents(
  db: Database,
  filter: AuditEventFilter,
  options: { cursor?: string; limit: number },
): Promise<AuditPage> {
  const cursor = options.cursor ? decodeCursor(options.cursor) : undefined;
  const rows = (await db
    .select(viewColumns)
    .from(auditEvents)
    .where(whereOf(filter, cursor))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(options.limit + 1)) as ViewRow[];
  const hasMore = rows.length > options.limit;
  const page = hasMore ? rows.slice(0, options.limit) : rows;
  const last = page.at(-1);
  const events = page.map(toView);
  return {
    events,
    staff: await staffOf(db, events),
    nextCursor: hasMore && last ? encodeCursor({ at: last.atExact, id: last.id }) : null,
  };
}

/**
 * Every matching event in pages of `batchSize`, newest first, for the export: one query per batch, never
 * more than one batch in memory. Stops when the consumer stops asking.
 */
export async function* iterateAuditEvents(
  db: Database,
  filter: AuditEventFilter,
  batchSize = 1000,
): AsyncGenerator<AuditEventExportRow[], void, undefined> {
  let cursor: Cursor | undefined;
  for (;;) {
    const rows = (await db
      .select({ ...viewColumns, prevHash: auditEvents.prevHash, hash: auditEvents.hash })
      .from(auditEvents)
      .where(whereOf(filter, cursor))
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(batchSize)) as Array<ViewRow & { prevHash: string; hash: string }>;
    if (rows.length === 0) return;
    yield rows.map((row) => ({ ...toView(row), prevHash: row.prevHash, hash: row.hash }));
    if (rows.length < batchSize) return;
    const last = rows.at(-1)!;
    cursor = { at: last.atExact, id: last.id };
  }
}

/**
 * The distinct action names, for the filter's suggestions. A loose index scan over (action, at): one
 * index probe per distinct action, so it stays instant with a million rows and a few dozen actions.
 */
export async function distinctActions(db: Database, max = 200): Promise<string[]> {
  const rows = await queryRows<{ action: string }>(
    db,
    sql`
    with recursive actions(action) as (
      (select action from audit_events order by action limit 1)
      union all
      select (select e.action from audit_events e where e.action > actions.action order by e.action limit 1)
      from actions where actions.action is not null
    )
    select action from actions where action is not null limit ${max}`,
  );
  return rows.map((row) => row.action);
}

import { wallTimeToInstant } from "@/lib/shared/time-zone";

import { DATE_ONLY, INSTANT, type AuditFilters } from "./filters";

/*
 * The audit filters' time range as instants, in the display time zone: the server's (GET /api/audit, the page, the
 * export). Apart from ./filters.ts, which the browser loads: the time-zone arithmetic is the server's alone.
 */

/** The time range as instants: `from` inclusive, `to` exclusive (a date or minute `to` covers all of it). */
export function timeRange(filters: Pick<AuditFilters, "from" | "to">, timeZone: string): { from?: Date; toExclusive?: Date } {
  const out: { from?: Date; toExclusive?: Date } = {};
  if (filters.from) out.from = toInstant(filters.from, timeZone, "start");
  if (filters.to) out.toExclusive = toInstant(filters.to, timeZone, "end");
  return out;
}

function toInstant(value: string, timeZone: string, edge: "start" | "end"): Date {
  if (INSTANT.test(value)) {
    const instant = new Date(value);
    // An instant `to` includes that very instant (to the millisecond the database keeps... and beyond).
    return edge === "end" ? new Date(instant.getTime() + 1) : instant;
  }
  if (DATE_ONLY.test(value)) {
    const start = wallTimeToInstant(`${value}T00:00:00`, timeZone);
    if (edge === "start") return start;
    const next = new Date(`${value}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    return wallTimeToInstant(`${next.toISOString().slice(0, 10)}T00:00:00`, timeZone);
  }
  const withSeconds = value.length === 16 ? `${value}:00` : value;
  const start = wallTimeToInstant(withSeconds, timeZone);
  if (edge === "start") return start;
  // A minute (`…T10:30`) covers the whole minute; a second, the whole second.
  return new Date(start.getTime() + (value.length === 16 ? 60_000 : 1000));
}

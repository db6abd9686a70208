/*
 * The list's `from`/`to` filters. The dashboard's URL always holds calendar days (YYYY-MM-DD, inclusive,
 * in the display time zone). What the service receives depends on CORE_DATE_FILTER_FORMAT (ASSUMPTION
 * (docs/assumptions.md#core-date-filter): the contract does not show the format): `date` sends the day as is;
 * `datetime` sends the first and last instant of that day in the display time zone as ISO 8601 with an offset.
 * Shared: no server imports.
 */
import { wallTimeInZone } from "@/lib/shared/time-zone";

export function upstreamDateBound(day: string, bound: "from" | "to", format: "date" | "datetime", timeZone: string): string {
  if (format === "date") return day;
  return wallTimeInZone(day, bound === "from" ? "00:00:00.000" : "23:59:59.999", timeZone);
}

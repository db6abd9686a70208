/*
 * The list's `from`/`to` filters. The dashboard's URL always holds calendar days (YYYY-MM-DD, inclusive,
 * in the display time zone). What the service receives depends on CORE_DATE_FILTER_FORMAT (ASSUMPTION:
 * the contract does not show the format): `date` sends the day as is; `datetime` sends the first and last
 * instant of that day in the display time zone as ISO 8601 with an offset. Shared: no server imports.
 */

/** "GMT-03:00" → "-03:00"; "GMT" → "+00:00". */
function offsetOf(instant: Date, timeZone: string): string {
  const name =
    new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
      .formatToParts(instant)
      .find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-]\d{2}):?(\d{2})?/.exec(name);
  return match ? `${match[1]}:${match[2] ?? "00"}` : "+00:00";
}

/**
 * The offset in force at local `time` on `day`. Guessed from the offset at that UTC wall time, then
 * corrected once: exact except within an hour of a daylight-saving change.
 */
function zonedInstant(day: string, time: string, timeZone: string): string {
  const guess = offsetOf(new Date(`${day}T${time}Z`), timeZone);
  const corrected = offsetOf(new Date(`${day}T${time}${guess}`), timeZone);
  return `${day}T${time}${corrected}`;
}

export function upstreamDateBound(day: string, bound: "from" | "to", format: "date" | "datetime", timeZone: string): string {
  if (format === "date") return day;
  return bound === "from" ? zonedInstant(day, "00:00:00.000", timeZone) : zonedInstant(day, "23:59:59.999", timeZone);
}

/**
 * Offset of `timeZone` from UTC at `instant`, in milliseconds (São Paulo: -3 h), read from Intl so it
 * follows the zone's rules (a zone with daylight saving gives the offset in force at that instant).
 */
export function zoneOffsetMs(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * `2026-10-01T09:15:00-03:00`: the instant as the display time zone's wall clock, with that zone's offset,
 * so a spreadsheet shows the analyst's time and the value still names one exact instant.
 */
export function isoInZone(instant: Date, timeZone: string): string {
  const offset = zoneOffsetMs(instant, timeZone);
  const wall = new Date(Math.floor(instant.getTime() / 1000) * 1000 + offset).toISOString().slice(0, 19);
  const minutes = Math.round(Math.abs(offset) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  return `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

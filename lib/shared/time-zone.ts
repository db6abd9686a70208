import { TZDate } from "@date-fns/tz";

/*
 * Every conversion between instants and a time zone's wall clock, in one place, on `@date-fns/tz`
 * (TZDate follows the IANA rules Intl carries, daylight-saving transitions included) instead of
 * hand-written offset arithmetic. Shared: no server imports.
 */

/** Offset of `timeZone` from UTC at `instant`, in milliseconds (São Paulo: -3 h). */
export function zoneOffsetMs(instant: Date, timeZone: string): number {
  return -new TZDate(instant.getTime(), timeZone).getTimezoneOffset() * 60_000;
}

/**
 * `2026-10-01T09:15:00-03:00`: the instant as the time zone's wall clock, with that zone's offset, so a
 * spreadsheet shows the analyst's time and the value still names one exact instant.
 */
export function isoInZone(instant: Date, timeZone: string): string {
  return new TZDate(Math.floor(instant.getTime() / 1000) * 1000, timeZone).toISOString().replace(/\.\d{3}(?=[+-]|Z)/, "");
}

/** A wall-clock time in `timeZone` (`2026-10-01T09:15[:00[.000]]`, or a bare day) → the instant it names. */
export function wallTimeToInstant(wall: string, timeZone: string): Date {
  const [datePart = "", timePart = "00:00:00"] = wall.split("T");
  const [year = 1970, month = 1, day = 1] = datePart.split("-").map(Number);
  const [hour = 0, minute = 0, secondsPart = 0] = timePart.split(":").map(Number);
  const seconds = Math.floor(secondsPart);
  const milliseconds = Math.round((secondsPart - seconds) * 1000);
  return new Date(new TZDate(year, month - 1, day, hour, minute, seconds, milliseconds, timeZone).getTime());
}

/** The same wall-clock time as an ISO 8601 string with the offset in force then (`…T00:00:00.000-03:00`). */
export function wallTimeInZone(day: string, time: string, timeZone: string): string {
  return new TZDate(wallTimeToInstant(`${day}T${time}`, timeZone).getTime(), timeZone).toISOString();
}

/** The instant a calendar day (YYYY-MM-DD) starts in `timeZone`. */
export function startOfDay(day: string, timeZone: string): Date {
  return wallTimeToInstant(day, timeZone);
}

/** The calendar day of `timeZone` holding `now`: its first instant and the next day's. */
export function dayWindow(now: Date, timeZone: string): { start: number; end: number } {
  const local = new TZDate(now.getTime(), timeZone);
  const start = new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), timeZone);
  const end = new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + 1, timeZone);
  return { start: start.getTime(), end: end.getTime() };
}

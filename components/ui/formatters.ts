/*
 * Number and day formatters for pages drawn on the server (plain functions of the locale, no hook). Days are
 * calendar days already in the display time zone (YYYY-MM-DD), so they are formatted as UTC dates: no second
 * time-zone shift.
 */

export function numberFormatter(locale: string): (value: number) => string {
  const format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  return (value) => format.format(value);
}

export function percentFormatter(locale: string): (value: number | null) => string {
  const format = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  return (value) => (value === null ? "—" : format.format(value));
}

export function dayFormatter(locale: string, style: "short" | "long"): (day: string) => string {
  const format = new Intl.DateTimeFormat(
    locale,
    style === "short"
      ? { day: "2-digit", month: "2-digit", timeZone: "UTC" }
      : { weekday: "short", day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" },
  );
  return (day) => format.format(new Date(`${day}T00:00:00Z`));
}

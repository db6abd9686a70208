"use client";

import { useFormatter, useTranslations } from "next-intl";

import { DATE_FORMAT, DATE_TIME_FORMAT } from "@/lib/shared/date-format";

/** Formatting of record values in the dashboard's language and time zone. */
export function useRecordFormat() {
  const format = useFormatter();
  const t = useTranslations("lookups.results");
  /** A calendar date (YYYY-MM-DD): formatted in UTC so it never shifts a day. Other text goes to instant(). */
  function date(value: string | null): string | null {
    if (!value) return null;
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return format.dateTime(new Date(`${value}T00:00:00Z`), { ...DATE_FORMAT, timeZone: "UTC" });
    return instant(value);
  }
  /** A timestamp, in the display time zone; text that is not one is shown as sent. */
  function instant(value: string | null): string | null {
    if (!value) return null;
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return date(value);
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? value : format.dateTime(new Date(parsed), DATE_TIME_FORMAT);
  }
  function yesNo(value: boolean | null): string | null {
    return value === null ? null : value ? t("yes") : t("no");
  }
  return { date, instant, yesNo };
}

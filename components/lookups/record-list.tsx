"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { ReactNode } from "react";

/*
 * A record shown as a description list. Unknown values (the upstream's empty strings, null here) read
 * "not informed" in a muted italic, so they never look like a blank left by an error.
 */

export function RecordList({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">{children}</dl>;
}

export function RecordItem({ label, value, wide = false }: { label: string; value: ReactNode; wide?: boolean }) {
  const t = useTranslations("common");
  const missing = value === null || value === undefined || value === "";
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className={`mt-0.5 text-sm ${missing ? "text-slate-600 italic" : "text-slate-900"}`}>{missing ? t("notInformed") : value}</dd>
    </div>
  );
}

/** Formatting of record values in the dashboard's language and time zone. */
export function useRecordFormat() {
  const format = useFormatter();
  const t = useTranslations("lookups.results");
  /** A calendar date (YYYY-MM-DD): formatted in UTC so it never shifts a day. Other text goes to instant(). */
  function date(value: string | null): string | null {
    if (!value) return null;
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return format.dateTime(new Date(`${value}T00:00:00Z`), { dateStyle: "short", timeZone: "UTC" });
    return instant(value);
  }
  /** A timestamp, in the display time zone; text that is not one is shown as sent. */
  function instant(value: string | null): string | null {
    if (!value) return null;
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return date(value);
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? value : format.dateTime(new Date(parsed), { dateStyle: "short", timeStyle: "short" });
  }
  function yesNo(value: boolean | null): string | null {
    return value === null ? null : value ? t("yes") : t("no");
  }
  return { date, instant, yesNo };
}

import { useFormatter } from "next-intl";

import { DATE_FORMAT, DATE_TIME_FORMAT } from "@/lib/shared/date-format";

/*
 * No "use client": server components call these too (the list's rows, drawn on the server), with next-intl's server
 * formatter.
 */

/** Date and time in the configured display time zone (next-intl carries it from lib/i18n/request.ts). */
export function useDateTime() {
  const format = useFormatter();
  return (iso: string | undefined | null, style: "datetime" | "date" = "datetime"): string | null => {
    if (!iso) return null;
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    return style === "date" ? format.dateTime(date, DATE_FORMAT) : format.dateTime(date, DATE_TIME_FORMAT);
  };
}

/** Numbers as the analyst's language writes them (83,4 in pt-BR). */
export function useNumber() {
  const format = useFormatter();
  return (value: number, maximumFractionDigits = 1) => format.number(value, { maximumFractionDigits });
}

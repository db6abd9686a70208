"use client";

import { useFormatter, useTranslations } from "next-intl";

import type { ComparisonRow, RecordValue, Verdict } from "@/lib/lookups/compare";
import type { LookupSource } from "@/lib/lookups/rules";
import { formatCpf } from "@/lib/shared/cpf";

const VERDICT_STYLE: Record<Verdict, string> = {
  matches: "text-emerald-800",
  differs: "font-semibold text-red-800",
  masked: "text-slate-600",
  missing: "text-slate-600",
};
const VERDICT_MARK: Record<Verdict, string> = { matches: "✓", differs: "≠", masked: "–", missing: "–" };

/** A value of the person as it reads: a date with its 4-digit year (never shifted by a time zone), a CPF punctuated, yes / no. */
function useValueText() {
  const t = useTranslations("verifications.record");
  const format = useFormatter();
  return (field: ComparisonRow["field"], value: string | boolean | null) => {
    if (value === null || (typeof value === "string" && value.trim() === "")) return null;
    if (typeof value === "boolean") return value ? t("yes") : t("no");
    if (field === "cpf" && /^\d{11}$/.test(value)) return formatCpf(value);
    if (field === "birthDate" && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
      return format.dateTime(new Date(`${value}T00:00:00Z`), { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "UTC" });
    }
    return value;
  };
}

const CELL = "px-3 py-2 align-top max-sm:block max-sm:px-0 max-sm:py-1 [overflow-wrap:anywhere]";

/**
 * The comparison table: one row per field, the document's value then each record's with its verdict in words
 * (matches, differs, cannot compare), a difference also marked by its row's colour and a sign. Below `sm` each row
 * is a card whose cells name their column, so a phone never scrolls it sideways.
 */
export function RecordComparisonTable({ rows, sources }: { rows: ComparisonRow[]; sources: LookupSource[] }) {
  const t = useTranslations("verifications.record");
  const text = useValueText();
  const notInformed = <span className="text-slate-600">{t("notInformed")}</span>;

  const recordCell = (row: ComparisonRow, source: LookupSource) => {
    const cell: RecordValue | undefined = row[source];
    return (
      <td key={source} role="cell" className={CELL}>
        <span className="font-medium text-slate-700 sm:hidden">{t(`sources.${source}`)}: </span>
        {cell ? (
          <>
            <span className="font-mono">{text(row.field, cell.value) ?? notInformed}</span>
            <span className={`block text-xs ${VERDICT_STYLE[cell.verdict]}`} data-verdict={cell.verdict}>
              <span aria-hidden="true">{VERDICT_MARK[cell.verdict]} </span>
              {t(`verdicts.${cell.verdict}`)}
            </span>
          </>
        ) : (
          <span className="text-slate-600">{t("notInSource")}</span>
        )}
      </td>
    );
  };

  return (
    <table role="table" className="mt-3 w-full border-collapse text-left text-sm max-sm:block">
      <caption className="sr-only">{t("caption")}</caption>
      <thead role="rowgroup" className="max-sm:sr-only">
        <tr role="row" className="border-b border-slate-200">
          <th role="columnheader" scope="col" className="px-3 py-2 font-medium">
            {t("field")}
          </th>
          <th role="columnheader" scope="col" className="px-3 py-2 font-medium">
            {t("onDocument")}
          </th>
          {sources.map((source) => (
            <th key={source} role="columnheader" scope="col" className="px-3 py-2 font-medium">
              {t(`sources.${source}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className="max-sm:block">
        {rows.map((row) => {
          const differs = row.receita?.verdict === "differs" || row.history?.verdict === "differs";
          return (
            <tr
              key={row.field}
              role="row"
              data-differs={differs || undefined}
              className={`border-b border-slate-100 max-sm:block max-sm:py-2 ${differs ? "border-l-4 border-l-red-600 bg-red-50" : ""}`}
            >
              <th role="rowheader" scope="row" className={`${CELL} font-medium`}>
                {t(`fields.${row.field}`)}
              </th>
              <td role="cell" className={CELL}>
                <span className="font-medium text-slate-700 sm:hidden">{t("onDocument")}: </span>
                <span className="font-mono">{text(row.field, row.document) ?? notInformed}</span>
              </td>
              {sources.map((source) => recordCell(row, source))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

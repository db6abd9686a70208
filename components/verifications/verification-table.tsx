"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";

import { Badge } from "@/components/ui/badge";
import { KNOWN_STEPS, type Verification } from "@/lib/domain/verification";

import { useDateTime, useNumber } from "./format";
import { StatusBadge, StepBadge } from "./status-badge";

/*
 * The list's table. Fixed layout and fixed column widths, so rows never reflow while data arrives, and
 * the skeleton below has exactly the same geometry (no layout shift between loading and loaded).
 * Every row's first cell is a link: the table is usable with Tab and Enter alone.
 */

const COLUMNS = [
  { key: "publicId", width: "w-[9.5rem]" },
  { key: "document", width: "w-[9rem]" },
  { key: "status", width: "w-[7.5rem]" },
  { key: "steps", width: "w-[12rem]" },
  { key: "identityScore", width: "w-[5.5rem]", numeric: true },
  { key: "riskScore", width: "w-[5.5rem]", numeric: true },
  { key: "pep", width: "w-[7rem]" },
  { key: "lists", width: "w-[6rem]" },
  { key: "createdAt", width: "w-[7.5rem]" },
  { key: "decidedAt", width: "w-[7.5rem]" },
] as const;

const ROW = "h-[5.25rem] border-t border-slate-100 align-middle";

function Head() {
  const t = useTranslations("verifications.table");
  return (
    <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
      <tr>
        {COLUMNS.map((column) => (
          <th key={column.key} scope="col" className={`${column.width} px-3 py-2 ${"numeric" in column ? "text-right" : ""}`}>
            {t(column.key)}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function Row({ item }: { item: Verification }) {
  const t = useTranslations("verifications.table");
  const dateTime = useDateTime();
  const number = useNumber();
  const steps = KNOWN_STEPS.map((name) => item.steps.find((step) => step.name === name) ?? { name, state: null });
  const lists = item.restrictiveLists.length;
  return (
    <tr className={ROW}>
      <th scope="row" className="px-3 py-2 text-left font-normal">
        <Link
          href={`/verifications/${encodeURIComponent(item.publicId)}`}
          className="block truncate font-mono text-xs text-brand-800 underline decoration-brand-600/40 underline-offset-2 hover:decoration-brand-800"
          title={item.publicId}
          aria-label={t("open", { publicId: item.publicId })}
        >
          {item.publicId}
        </Link>
      </th>
      <td className="px-3 py-2">
        <span className="block truncate font-mono text-xs text-slate-800">{item.document}</span>
        {item.documentMasked ? <span className="text-xs text-slate-600">{t("masked")}</span> : null}
      </td>
      <td className="px-3 py-2">
        <StatusBadge status={item.status} />
      </td>
      <td className="px-3 py-1">
        <ul className="flex flex-col items-start gap-0.5">
          {steps.map((step) => (
            <li key={step.name}>
              <StepBadge name={step.name} state={step.state} />
            </li>
          ))}
        </ul>
      </td>
      <td className="px-3 py-2 text-right tabular-nums">{item.identityScore === null ? t("none") : number(item.identityScore)}</td>
      <td className="px-3 py-2 text-right tabular-nums">{item.riskScore === null ? t("none") : number(item.riskScore)}</td>
      <td className="px-3 py-2">
        {item.pepOrigin ? (
          <span className="flex flex-col items-start gap-0.5">
            <Badge tone="warning">{t("pepYes")}</Badge>
            <span className="block max-w-full truncate text-xs text-slate-700" title={item.pepOrigin}>
              {item.pepOrigin}
            </span>
          </span>
        ) : (
          <span className="text-slate-600">{t("no")}</span>
        )}
      </td>
      <td className="px-3 py-2">
        {lists > 0 ? (
          <Badge tone="danger">{t("listHits", { count: lists })}</Badge>
        ) : (
          <span className="text-slate-600">{t("listHits", { count: 0 })}</span>
        )}
      </td>
      <td className="px-3 py-2 text-xs text-slate-700 tabular-nums">{dateTime(item.createdAt) ?? t("none")}</td>
      <td className="px-3 py-2 text-xs text-slate-700 tabular-nums">
        {dateTime(item.decidedAt) ?? <span className="text-slate-600">{t("notDecided")}</span>}
      </td>
    </tr>
  );
}

export function VerificationTable({ items, caption, busy = false }: { items: Verification[]; caption: string; busy?: boolean }) {
  return (
    <table aria-busy={busy || undefined} className="w-full min-w-[77rem] table-fixed border-collapse text-sm">
      <caption className="sr-only">{caption}</caption>
      <Head />
      <tbody>
        {items.map((item) => (
          <Row key={item.publicId} item={item} />
        ))}
      </tbody>
    </table>
  );
}

/** Same geometry as the table, for loading.tsx and the first client fetch. */
export function VerificationTableSkeleton({ rows = 10, caption }: { rows?: number; caption: string }) {
  return (
    <table aria-hidden="true" className="w-full min-w-[77rem] table-fixed border-collapse text-sm">
      <caption className="sr-only">{caption}</caption>
      <Head />
      <tbody>
        {Array.from({ length: rows }, (_, index) => (
          <tr key={index} className={ROW}>
            {COLUMNS.map((column) => (
              <td key={column.key} className="px-3 py-2">
                <span className="block h-3 animate-pulse rounded bg-slate-200" />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

"use client";

import { useNow, useTranslations } from "next-intl";
import Link from "next/link";

import { Badge } from "@/components/ui/badge";
import { LinkPending } from "@/components/ui/link-pending";
import { KNOWN_STEPS, type Verification } from "@/lib/upstream/model/verification";
import { redFlags } from "@/lib/cases/red-flags";
import { isDecided } from "@/lib/upstream/model/verification";
import type { ListSort, SortKey } from "@/lib/verifications/sorting";
import type { ListEnrichment } from "@/lib/verifications/types";

import { useDateTime, useNumber } from "./format";
import { StatusBadge, StepBadge } from "./status-badge";

/*
 * The list: a compact table from md up (one line per row, so 15+ rows fit above the fold at 1440×900) and
 * one card per verification below it (no sideways scroll on a phone). Fixed layout and fixed column widths,
 * so rows never reflow while data arrives, and the skeleton has the same geometry. Every row's first cell is
 * a link carrying the list's query, so the detail's back link and previous/next keep the filters and sort.
 */

type ColumnKey =
  | "publicId"
  | "document"
  | "status"
  | "refId"
  | "steps"
  | "identityScore"
  | "riskScore"
  | "flags"
  | "createdAt"
  | "decidedAt"
  | "caseAge"
  | "owner";

const COLUMNS: Array<{ key: ColumnKey; width: string; numeric?: boolean; sort?: SortKey }> = [
  { key: "publicId", width: "w-[7.5rem]" },
  { key: "document", width: "w-[7.5rem]" },
  { key: "status", width: "w-[7rem]", sort: "status" },
  { key: "refId", width: "w-[6.5rem]", sort: "ref_id" },
  { key: "steps", width: "w-[7.5rem]" },
  { key: "identityScore", width: "w-[5rem]", numeric: true, sort: "identity_score" },
  { key: "riskScore", width: "w-[5rem]", numeric: true, sort: "risk_score" },
  { key: "flags", width: "w-[6.5rem]" },
  { key: "createdAt", width: "w-[7rem]", sort: "created_at" },
  { key: "decidedAt", width: "w-[7rem]", sort: "decided_at" },
  { key: "caseAge", width: "w-[4.5rem]", sort: "case_age" },
  { key: "owner", width: "w-[6rem]" },
];

const ROW = "h-9 border-t border-slate-100 align-middle";
const TABLE = "w-full min-w-[77rem] table-fixed border-collapse text-sm";

export function detailHref(publicId: string, listQuery: string): string {
  const base = `/verifications/${encodeURIComponent(publicId)}`;
  return listQuery ? `${base}?${new URLSearchParams({ list: listQuery }).toString()}` : base;
}

/** Whole days since an ISO instant, or null. */
function useAgeDays() {
  const now = useNow({ updateInterval: 60_000 });
  return (iso: string | null | undefined) => {
    const ms = iso ? Date.parse(iso) : NaN;
    return Number.isNaN(ms) ? null : Math.max(0, Math.floor((now.getTime() - ms) / 86_400_000));
  };
}

function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: (typeof COLUMNS)[number];
  sort: ListSort | null;
  onSort?: (sort: ListSort | null) => void;
}) {
  const t = useTranslations("verifications.table");
  const active = column.sort && sort?.key === column.sort ? sort.direction : null;
  const ariaSort = active === "asc" ? "ascending" : active === "desc" ? "descending" : undefined;
  const label = t(column.key);
  return (
    <th scope="col" aria-sort={ariaSort} className={`${column.width} px-2 py-1.5 ${column.numeric ? "text-right" : ""}`}>
      {column.sort && onSort ? (
        <button
          type="button"
          className="inline-flex max-w-full items-center gap-1 uppercase hover:text-slate-900"
          data-sort={column.sort}
          onClick={() => {
            // Descending first for numbers and dates (highest risk, newest), then ascending, then the service's order.
            const next: ListSort | null =
              active === null
                ? { key: column.sort!, direction: "desc" }
                : active === "desc"
                  ? { key: column.sort!, direction: "asc" }
                  : null;
            onSort(next);
          }}
        >
          <span className="truncate">{label}</span>
          <span aria-hidden="true">{active === "asc" ? "▲" : active === "desc" ? "▼" : "↕"}</span>
          <span className="sr-only">{t("sortBy", { column: label })}</span>
        </button>
      ) : (
        <span className="block truncate">{label}</span>
      )}
    </th>
  );
}

function Flags({ item }: { item: Verification }) {
  const t = useTranslations("verifications.table");
  const flags = redFlags(item);
  const lists = item.restrictiveLists.length;
  const pep = flags.some((flag) => flag.kind === "pep");
  if (!pep && lists === 0 && flags.length === 0) return <span className="text-slate-600">{t("none")}</span>;
  return (
    <span className="flex items-center gap-1 overflow-hidden" title={t("flagCount", { count: flags.length })}>
      {pep ? <Badge tone="warning">{t("pepYes")}</Badge> : null}
      {lists > 0 ? <Badge tone="danger">{t("listHitsShort", { count: lists })}</Badge> : null}
      {!pep && lists === 0 ? <Badge tone="danger">{t("flagCount", { count: flags.length })}</Badge> : null}
    </span>
  );
}

function useCells(item: Verification, enrichment: ListEnrichment | undefined) {
  const t = useTranslations("verifications.table");
  const dateTime = useDateTime();
  const number = useNumber();
  const age = useAgeDays();
  const days = age(enrichment?.caseOpenedAt);
  return {
    refId: enrichment?.refId ?? null,
    identity: item.identityScore === null ? t("none") : number(item.identityScore),
    risk: item.riskScore === null ? t("none") : number(item.riskScore),
    created: dateTime(item.createdAt) ?? t("none"),
    // Only outcomes have a decision date (isDecided).
    decided: isDecided(item.status) ? (dateTime(item.decidedAt) ?? t("none")) : null,
    caseAge: days === null ? null : t("days", { count: days }),
    owner: enrichment?.caseOwner ?? null,
  };
}

function Row({ item, enrichment, listQuery }: { item: Verification; enrichment?: ListEnrichment; listQuery: string }) {
  const t = useTranslations("verifications.table");
  const cells = useCells(item, enrichment);
  const steps = KNOWN_STEPS.map((name) => item.steps.find((step) => step.name === name) ?? { name, state: null });
  const dash = <span className="text-slate-600">{t("none")}</span>;
  return (
    <tr className={ROW} data-public-id={item.publicId}>
      <th scope="row" className="px-2 py-1 text-left font-normal">
        <Link
          href={detailHref(item.publicId, listQuery)}
          className="relative block truncate font-mono text-xs text-brand-800 underline decoration-brand-600/40 underline-offset-2 hover:decoration-brand-800"
          title={item.publicId}
          aria-label={t("open", { publicId: item.publicId })}
        >
          {item.publicId}
          <LinkPending />
        </Link>
      </th>
      <td className="truncate px-2 py-1 font-mono text-xs text-slate-800" title={item.documentMasked ? t("masked") : undefined}>
        {item.document}
        {item.documentMasked ? <span className="sr-only"> ({t("masked")})</span> : null}
      </td>
      <td className="px-2 py-1">
        <StatusBadge status={item.status} />
      </td>
      <td className="truncate px-2 py-1 text-xs text-slate-800" title={cells.refId ?? undefined}>
        {cells.refId ?? dash}
      </td>
      <td className="px-2 py-1">
        <CompactSteps steps={steps} />
      </td>
      <td className="px-2 py-1 text-right tabular-nums">{cells.identity}</td>
      <td className="px-2 py-1 text-right tabular-nums">{cells.risk}</td>
      <td className="px-2 py-1">
        <Flags item={item} />
      </td>
      <td className="truncate px-2 py-1 text-xs text-slate-700 tabular-nums">{cells.created}</td>
      <td className="truncate px-2 py-1 text-xs text-slate-700 tabular-nums">
        {cells.decided ?? <span className="text-slate-600">{t("notDecided")}</span>}
      </td>
      <td className="truncate px-2 py-1 text-xs text-slate-700 tabular-nums">{cells.caseAge ?? dash}</td>
      <td className="truncate px-2 py-1 text-xs text-slate-700" title={cells.owner ?? undefined}>
        {cells.owner ?? dash}
      </td>
    </tr>
  );
}

/** Three steps on one line: a symbol each, the full "OCR: Approved" for screen readers and on hover. */
function CompactSteps({ steps }: { steps: Array<{ name: string; state: string | null }> }) {
  return (
    <ul className="flex items-center gap-0.5">
      {steps.map((step) => (
        <li key={step.name}>
          <StepBadge name={step.name} state={step.state} compact />
        </li>
      ))}
    </ul>
  );
}

function Card({ item, enrichment, listQuery }: { item: Verification; enrichment?: ListEnrichment; listQuery: string }) {
  const t = useTranslations("verifications.table");
  const cells = useCells(item, enrichment);
  const steps = KNOWN_STEPS.map((name) => item.steps.find((step) => step.name === name) ?? { name, state: null });
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3" data-public-id={item.publicId}>
      <article className="min-w-0 space-y-2">
        <div className="flex items-start justify-between gap-2">
          <Link
            href={detailHref(item.publicId, listQuery)}
            className="relative min-w-0 font-mono text-sm break-all text-brand-800 underline underline-offset-2"
            aria-label={t("open", { publicId: item.publicId })}
          >
            {item.publicId}
            <LinkPending />
          </Link>
          <StatusBadge status={item.status} />
        </div>
        <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
          <dt className="text-slate-600">{t("document")}</dt>
          <dd className="font-mono break-all text-slate-900">{item.document}</dd>
          {cells.refId ? (
            <>
              <dt className="text-slate-600">{t("refId")}</dt>
              <dd className="break-all text-slate-900">{cells.refId}</dd>
            </>
          ) : null}
          <dt className="text-slate-600">{t("riskScore")}</dt>
          <dd className="text-slate-900 tabular-nums">{cells.risk}</dd>
          <dt className="text-slate-600">{t("createdAt")}</dt>
          <dd className="text-slate-900 tabular-nums">{cells.created}</dd>
          {cells.caseAge || cells.owner ? (
            <>
              <dt className="text-slate-600">{t("caseAge")}</dt>
              <dd className="text-slate-900">{[cells.caseAge, cells.owner].filter(Boolean).join(" · ")}</dd>
            </>
          ) : null}
        </dl>
        <div className="flex flex-wrap items-center gap-1">
          <CompactSteps steps={steps} />
          <Flags item={item} />
        </div>
      </article>
    </li>
  );
}

export function VerificationTable({
  items,
  caption,
  busy = false,
  enrichment,
  listQuery = "",
  sort = null,
  onSort,
}: {
  items: Verification[];
  caption: string;
  busy?: boolean;
  enrichment?: Record<string, ListEnrichment>;
  /** The list page's query (filters and sort), carried to the detail. */
  listQuery?: string;
  sort?: ListSort | null;
  onSort?: (sort: ListSort | null) => void;
}) {
  return (
    <>
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white md:block">
        <table aria-busy={busy || undefined} className={TABLE}>
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              {COLUMNS.map((column) => (
                <SortHeader key={column.key} column={column} sort={sort} onSort={onSort} />
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <Row key={item.publicId} item={item} enrichment={enrichment?.[item.publicId]} listQuery={listQuery} />
            ))}
          </tbody>
        </table>
      </div>
      <ul aria-label={caption} aria-busy={busy || undefined} className="space-y-2 md:hidden" data-list-cards>
        {items.map((item) => (
          <Card key={item.publicId} item={item} enrichment={enrichment?.[item.publicId]} listQuery={listQuery} />
        ))}
      </ul>
    </>
  );
}

/** Same geometry as the table, while the client fetches a view it has nothing to show for yet. */
export function VerificationTableSkeleton({ rows = 10, caption }: { rows?: number; caption: string }) {
  const t = useTranslations("verifications.table");
  return (
    <>
      <ul className="space-y-2 md:hidden" aria-hidden="true">
        {Array.from({ length: Math.min(rows, 6) }, (_, index) => (
          <li key={index} className="h-28 animate-pulse rounded-lg border border-slate-200 bg-white" />
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white md:block" aria-hidden="true">
        <table className={TABLE}>
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              {COLUMNS.map((column) => (
                <th key={column.key} scope="col" className={`${column.width} truncate px-2 py-1.5`}>
                  {t(column.key)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: rows }, (_, index) => (
              <tr key={index} className={ROW}>
                {COLUMNS.map((column) => (
                  <td key={column.key} className="px-2 py-1">
                    <span className="block h-3 animate-pulse rounded bg-slate-200" />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

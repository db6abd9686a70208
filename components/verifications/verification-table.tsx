import { useNow, useTranslations } from "next-intl";

import { AppLink as Link } from "@/components/ui/app-link";
import { Badge } from "@/components/ui/badge";
import { DataBody, DataCell, DataHead, DataHeader, DataRow, DataTable, ShortLabel } from "@/components/ui/data-table";
import { LinkPending } from "@/components/ui/link-pending";
import { useDateTime, useNumber } from "@/components/ui/use-formatters";
import { redFlags } from "@/lib/cases/red-flags";
import { isDecided, KNOWN_STEPS, type Verification } from "@/lib/upstream/model/verification";
import type { VerificationFilters } from "@/lib/upstream/model/verification-query";
import type { ListSort, SortKey } from "@/lib/verifications/sorting";
import type { ListEnrichment } from "@/lib/verifications/types";

import { detailHref } from "./detail-href";
import { SortButton } from "./list-controls";
import { StatusBadge, StepBadge } from "./status-badge";

/*
 * The list: a compact table from md up (one line per row, so 15+ rows fit above the fold at 1440×900) and
 * one card per verification below it (the shared DataTable pattern: no sideways scroll on a phone). Fixed
 * layout and fixed column widths, so rows never reflow while data arrives, and the skeleton has the same
 * geometry. Headers wrap rather than cut, and the ones whose words would not fit their column show a short
 * form (an <abbr> with the full name). Every row's first cell is a link carrying the list's query, so the
 * detail's back link and previous/next keep the filters and sort. The sort orders the rows of this page
 * only (the service does not sort): the note above the header says so, and each sort button is described by it.
 * Drawn on the server (no "use client"); the sort buttons are the browser's part (./list-controls.tsx).
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
  { key: "steps", width: "w-[7rem]" },
  { key: "identityScore", width: "w-[5.5rem]", numeric: true, sort: "identity_score" },
  { key: "riskScore", width: "w-[5rem]", numeric: true, sort: "risk_score" },
  { key: "flags", width: "w-[6.5rem]" },
  { key: "createdAt", width: "w-[7rem]", sort: "created_at" },
  { key: "decidedAt", width: "w-[7rem]", sort: "decided_at" },
  { key: "caseAge", width: "w-[5rem]", sort: "case_age" },
  { key: "owner", width: "w-[6rem]" },
];

// One line per row on a wide screen, whatever a cell holds (a long owner, two flag badges): rows keep their 36 px.
const ROW = "md:h-9 md:align-middle md:whitespace-nowrap";
const TABLE = "md:min-w-[77.5rem] md:table-fixed";
const PAD = "px-2 py-1";

/** A column's header text: its short form (in an <abbr>) where the full name would not fit. */
function useHeaderLabel() {
  const t = useTranslations("verifications.table");
  return (key: ColumnKey) => {
    const full = t(key);
    return { full, node: t.has(`short.${key}`) ? <ShortLabel short={t(`short.${key}`)} full={full} /> : full };
  };
}

/** Whole days since an ISO instant, or null: as of the view's drawing. */
function useAgeDays() {
  const now = useNow();
  return (iso: string | null | undefined) => {
    const ms = iso ? Date.parse(iso) : NaN;
    return Number.isNaN(ms) ? null : Math.max(0, Math.floor((now.getTime() - ms) / 86_400_000));
  };
}

function SortHeader({
  column,
  sort,
  filters,
  noteId,
}: {
  column: (typeof COLUMNS)[number];
  sort: ListSort | null;
  /** The view's filters: given, the sortable columns have a sort button. */
  filters?: VerificationFilters;
  noteId?: string;
}) {
  const t = useTranslations("verifications.table");
  const header = useHeaderLabel();
  const active = column.sort && sort?.key === column.sort ? sort.direction : null;
  const ariaSort = active === "asc" ? "ascending" : active === "desc" ? "descending" : undefined;
  const { full, node } = header(column.key);
  return (
    <DataHeader aria-sort={ariaSort} pad="px-2 py-1" className={`${column.width} leading-[1.1] ${column.numeric ? "text-right" : ""}`}>
      {column.sort && filters && noteId ? (
        <SortButton filters={filters} sort={sort} column={column.sort} numeric={column.numeric === true} noteId={noteId}>
          <span className="min-w-0 break-words" data-header-text="">
            {node}
          </span>
          <span aria-hidden="true">{active === "asc" ? "▲" : active === "desc" ? "▼" : "↕"}</span>
          <span className="sr-only">{t("sortBy", { column: full })}</span>
        </SortButton>
      ) : (
        <span className="block break-words" data-header-text="">
          {node}
        </span>
      )}
    </DataHeader>
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
  const label = (key: ColumnKey) => t(key);
  return (
    <DataRow className={ROW} data-public-id={item.publicId}>
      <DataCell rowHeader kind="title" pad={PAD} className="font-normal">
        <Link
          href={detailHref(item.publicId, listQuery)}
          className="relative block font-mono text-xs text-brand-800 underline decoration-brand-600/40 underline-offset-2 hover:decoration-brand-800 max-md:text-sm max-md:break-all md:truncate"
          title={item.publicId}
          aria-label={t("open", { publicId: item.publicId })}
        >
          {item.publicId}
          <LinkPending />
        </Link>
      </DataCell>
      <DataCell
        label={label("document")}
        pad={PAD}
        className="font-mono text-xs text-slate-800 md:truncate"
        title={item.documentMasked ? t("masked") : undefined}
      >
        {item.document}
        {item.documentMasked ? <span className="sr-only"> ({t("masked")})</span> : null}
      </DataCell>
      <DataCell label={label("status")} pad={PAD}>
        <StatusBadge status={item.status} />
      </DataCell>
      <DataCell label={label("refId")} pad={PAD} className="text-xs text-slate-800 md:truncate" title={cells.refId ?? undefined}>
        {cells.refId ?? dash}
      </DataCell>
      <DataCell label={label("steps")} pad={PAD}>
        <CompactSteps steps={steps} />
      </DataCell>
      <DataCell label={label("identityScore")} pad={PAD} className="text-right tabular-nums">
        {cells.identity}
      </DataCell>
      <DataCell label={label("riskScore")} pad={PAD} className="text-right tabular-nums">
        {cells.risk}
      </DataCell>
      <DataCell label={label("flags")} pad={PAD}>
        <Flags item={item} />
      </DataCell>
      <DataCell label={label("createdAt")} pad={PAD} className="text-xs text-slate-700 tabular-nums md:truncate">
        {cells.created}
      </DataCell>
      <DataCell label={label("decidedAt")} pad={PAD} className="text-xs text-slate-700 tabular-nums md:truncate">
        {cells.decided ?? <span className="text-slate-600">{t("notDecided")}</span>}
      </DataCell>
      <DataCell label={label("caseAge")} pad={PAD} className="text-xs text-slate-700 tabular-nums md:truncate">
        {cells.caseAge ?? dash}
      </DataCell>
      <DataCell label={label("owner")} pad={PAD} className="text-xs text-slate-700 md:truncate" title={cells.owner ?? undefined}>
        {cells.owner ?? dash}
      </DataCell>
    </DataRow>
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

export function VerificationTable({
  items,
  caption,
  enrichment,
  listQuery = "",
  sort = null,
  filters,
  sortNoteId,
}: {
  items: Verification[];
  caption: string;
  enrichment?: Record<string, ListEnrichment>;
  /** The list page's query (filters and sort), carried to the detail. */
  listQuery?: string;
  sort?: ListSort | null;
  /** The view's filters, which a sort keeps: given with `sortNoteId`, the sortable columns have a sort button. */
  filters?: VerificationFilters;
  /** The note saying the sort covers this page only (SortNote, shown by the page just above the header): describes each sort button. */
  sortNoteId?: string;
}) {
  return (
    <div>
      <DataTable caption={caption} tableClassName={TABLE}>
        <DataHead>
          {COLUMNS.map((column) => (
            <SortHeader key={column.key} column={column} sort={sort} filters={filters} noteId={sortNoteId} />
          ))}
        </DataHead>
        <DataBody>
          {items.map((item) => (
            <Row key={item.publicId} item={item} enrichment={enrichment?.[item.publicId]} listQuery={listQuery} />
          ))}
        </DataBody>
      </DataTable>
    </div>
  );
}

/**
 * The sort covers the rows of this page only (the service takes no sort parameter, lib/verifications/sorting.ts):
 * said just above the header, in the list's status line so it costs no height, and as each sort button's description.
 */
export function SortNote({ id }: { id: string }) {
  const t = useTranslations("verifications.list");
  return (
    <p id={id} className="text-xs text-slate-700 md:ml-auto" data-sort-note="">
      <span aria-hidden="true">↕ </span>
      {t("sortNote")}
    </p>
  );
}

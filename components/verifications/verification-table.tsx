import { useNow, useTranslations } from "next-intl";

import type { BadgeTone } from "@/components/ui/badge";
import { DataBody, DataHead, DataHeader, DataTable, ShortLabel } from "@/components/ui/data-table";
import { useDateTime, useNumber } from "@/components/ui/use-formatters";
import { redFlags } from "@/lib/cases/red-flags";
import { isDecided, KNOWN_STEPS, type Verification } from "@/lib/upstream/model/verification";
import type { VerificationFilters } from "@/lib/upstream/model/verification-query";
import type { ListSort, SortKey } from "@/lib/verifications/sorting";
import type { ListEnrichment } from "@/lib/verifications/types";

import { SortButton } from "./list-controls";
import { ID_SLOT, type RowView, type RowWords } from "./row-view";
import { useCompactStepView, useStateView } from "./status-badge";
import { VerificationRows } from "./verification-rows";

/*
 * The list: a compact table from md up (one line per row, so 15+ rows fit above the fold at 1440×900) and
 * one card per verification below it (the shared DataTable pattern: no sideways scroll on a phone). Fixed
 * layout and fixed column widths, so rows never reflow while data arrives, and the skeleton has the same
 * geometry. Headers wrap rather than cut, and the ones whose words would not fit their column show a short
 * form (an <abbr> with the full name). Every row's first cell is a link carrying the list's query, so the
 * detail's back link and previous/next keep the filters and sort. The sort orders the rows of this page
 * only (the service does not sort): the note above the header says so, and each sort button is described by it.
 * The header is drawn on the server (no "use client"), its sort buttons are the browser's part (./list-controls.tsx);
 * the rows are written out here (`useRowViews`) and drawn by ./verification-rows.tsx, so the page carries each once.
 */

/** The list's columns. */
export type ColumnKey =
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

// `vlist`: its rows and cells look (app/globals.css), each row's HTML kept short (./verification-rows.tsx).
const TABLE = "vlist md:min-w-[77.5rem] md:table-fixed";

/** A column's header text: its short form (in an <abbr>) where the full name would not fit. */
function useHeaderLabel() {
  const t = useTranslations("verifications.table");
  return (key: ColumnKey) => {
    const full = t(key);
    return { full, node: t.has(`short.${key}`) ? <ShortLabel short={t(`short.${key}`)} full={full} /> : full };
  };
}

/** The columns' labels on a phone's cards, but the public id's: it heads its card. */
function useColumnLabels() {
  const t = useTranslations("verifications.table");
  return COLUMNS.map((column) => (column.key === "publicId" ? null : t(column.key)));
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

/** A verification's red flags as the row shows them: PEP, list hits, or else their count; null when there are none. */
function useFlagsView() {
  const t = useTranslations("verifications.table");
  return (item: Verification): RowView["flags"] => {
    const flags = redFlags(item);
    const lists = item.restrictiveLists.length;
    const pep = flags.some((flag) => flag.kind === "pep");
    if (!pep && lists === 0 && flags.length === 0) return null;
    const badges: Array<{ tone: BadgeTone; text: string }> = [];
    if (pep) badges.push({ tone: "warning", text: t("pepYes") });
    if (lists > 0) badges.push({ tone: "danger", text: t("listHitsShort", { count: lists }) });
    if (!pep && lists === 0) badges.push({ tone: "danger", text: t("flagCount", { count: flags.length }) });
    return { title: t("flagCount", { count: flags.length }), badges };
  };
}

/**
 * Each row as ./verification-rows.tsx draws it, written out here in the member's language; `steps[i]`: the places of
 * item i's step badges among the rows' shared ones (useRowWords).
 */
function useRowViews(items: Verification[], enrichment: Record<string, ListEnrichment> | undefined, steps: number[][]): RowView[] {
  const t = useTranslations("verifications.table");
  const dateTime = useDateTime();
  const number = useNumber();
  const age = useAgeDays();
  const flags = useFlagsView();
  return items.map((item, i) => {
    const known = enrichment?.[item.publicId];
    const days = age(known?.caseOpenedAt);
    return {
      id: item.publicId,
      document: item.document,
      masked: item.documentMasked,
      status: item.status,
      refId: known?.refId ?? null,
      steps: steps[i]!,
      identity: item.identityScore === null ? t("none") : number(item.identityScore),
      risk: item.riskScore === null ? t("none") : number(item.riskScore),
      flags: flags(item),
      created: dateTime(item.createdAt) ?? t("none"),
      // Only outcomes have a decision date (isDecided).
      decided: isDecided(item.status) ? (dateTime(item.decidedAt) ?? t("none")) : null,
      caseAge: days === null ? null : t("days", { count: days }),
      owner: known?.caseOwner ?? null,
    };
  });
}

const stepState = (item: Verification, name: string) => item.steps.find((step) => step.name === name)?.state ?? null;

/**
 * The words every row shares, once, with the badges of the statuses and step states among `items`; and, for each
 * item, where its step badges sit among them.
 */
function useRowWords(items: Verification[]): [RowWords, number[][]] {
  const t = useTranslations("verifications.table");
  const state = useStateView();
  const step = useCompactStepView();
  const states: RowWords["states"] = {};
  const steps: RowWords["steps"] = [];
  const index = new Map<string, number>();
  const placeOf = (name: string, value: string | null) => {
    const key = `${name}:${value ?? ""}`;
    let place = index.get(key);
    if (place === undefined) index.set(key, (place = steps.push(step(name, value)) - 1));
    return place;
  };
  const places = items.map((item) => {
    states[item.status] ??= state(item.status);
    return KNOWN_STEPS.map((name) => placeOf(name, stepState(item, name)));
  });
  const words = {
    open: t("open", { publicId: ID_SLOT }),
    masked: t("masked"),
    none: t("none"),
    notDecided: t("notDecided"),
    states,
    steps,
  };
  return [words, places];
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
  const [words, stepPlaces] = useRowWords(items);
  return (
    <div>
      <DataTable caption={caption} tableClassName={TABLE} columns={useColumnLabels()}>
        <DataHead>
          {COLUMNS.map((column) => (
            <SortHeader key={column.key} column={column} sort={sort} filters={filters} noteId={sortNoteId} />
          ))}
        </DataHead>
        <DataBody>
          <VerificationRows rows={useRowViews(items, enrichment, stepPlaces)} words={words} listQuery={listQuery} />
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

"use client";

import { AppLink as Link } from "@/components/ui/app-link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { DataCell, DataRow } from "@/components/ui/data-table";
import { LinkPending } from "@/components/ui/link-pending";

import { detailHref } from "./detail-href";
import { CompactStepBadge, StateBadge, type CompactStepView, type StateView } from "./status-badge";

/*
 * The list's rows, drawn from what the server worked out for each (./verification-table.tsx, `useRowViews`): its
 * words, dates and numbers already written in the member's language, its badges' tones. So the page carries each
 * row once as that short value, not its whole markup a second time for the browser's React, and the browser
 * needs no catalogue, formatter or rule to draw it.
 */

/** The list's columns (./verification-table.tsx lays them out). */
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

export interface RowView {
  id: string;
  /** The link's accessible name ("Open verification …"). */
  open: string;
  document: string;
  masked: boolean;
  /** The status, a key of RowWords' `states`. */
  status: string;
  refId: string | null;
  /** Each step's state, keys of RowWords' `steps` (`ocr:approved`). */
  steps: string[];
  identity: string;
  risk: string;
  /** The red flags' badges and their count in words; null: none. */
  flags: { title: string; badges: Array<{ tone: BadgeTone; text: string }> } | null;
  created: string;
  /** Null: not decided yet. */
  decided: string | null;
  caseAge: string | null;
  owner: string | null;
}

/** The words every row shares, once: the cells' labels (shown on a phone's cards) and the placeholders. */
export interface RowWords {
  /** Every column but the public id, which heads its row. */
  labels: Record<Exclude<ColumnKey, "publicId">, string>;
  masked: string;
  none: string;
  notDecided: string;
  /** The badges of the statuses and step states on the page, each written once. */
  states: Record<string, StateView>;
  steps: Record<string, CompactStepView>;
}

// One line per row on a wide screen, whatever a cell holds (a long owner, two flag badges): rows keep their 36 px.
const ROW = "md:h-9 md:align-middle md:whitespace-nowrap";
const PAD = "px-2 py-1";

/** `listQuery`: the list's query (filters and sort), which each row's link carries to the detail. */
export function VerificationRows({ rows, words, listQuery }: { rows: RowView[]; words: RowWords; listQuery: string }) {
  return rows.map((row) => <Row key={row.id} row={row} words={words} listQuery={listQuery} />);
}

function Row({ row, words, listQuery }: { row: RowView; words: RowWords; listQuery: string }) {
  const { labels } = words;
  const dash = <span className="text-slate-600">{words.none}</span>;
  return (
    <DataRow className={ROW} data-public-id={row.id}>
      <DataCell rowHeader kind="title" pad={PAD} className="font-normal">
        <Link
          href={detailHref(row.id, listQuery)}
          className="relative block font-mono text-xs text-brand-800 underline decoration-brand-600/40 underline-offset-2 hover:decoration-brand-800 max-md:text-sm max-md:break-all md:truncate"
          title={row.id}
          aria-label={row.open}
        >
          {row.id}
          <LinkPending />
        </Link>
      </DataCell>
      <DataCell
        label={labels.document}
        pad={PAD}
        className="font-mono text-xs text-slate-800 md:truncate"
        title={row.masked ? words.masked : undefined}
      >
        {row.document}
        {row.masked ? <span className="sr-only"> ({words.masked})</span> : null}
      </DataCell>
      <DataCell label={labels.status} pad={PAD}>
        <StateBadge view={words.states[row.status]!} />
      </DataCell>
      <DataCell label={labels.refId} pad={PAD} className="text-xs text-slate-800 md:truncate" title={row.refId ?? undefined}>
        {row.refId ?? dash}
      </DataCell>
      <DataCell label={labels.steps} pad={PAD}>
        <ul className="flex items-center gap-0.5">
          {row.steps.map((step) => (
            <li key={step}>
              <CompactStepBadge view={words.steps[step]!} />
            </li>
          ))}
        </ul>
      </DataCell>
      <DataCell label={labels.identityScore} pad={PAD} className="text-right tabular-nums">
        {row.identity}
      </DataCell>
      <DataCell label={labels.riskScore} pad={PAD} className="text-right tabular-nums">
        {row.risk}
      </DataCell>
      <DataCell label={labels.flags} pad={PAD}>
        {row.flags ? (
          <span className="flex items-center gap-1 overflow-hidden" title={row.flags.title}>
            {row.flags.badges.map((badge) => (
              <Badge key={badge.text} tone={badge.tone}>
                {badge.text}
              </Badge>
            ))}
          </span>
        ) : (
          <span className="text-slate-600">{words.none}</span>
        )}
      </DataCell>
      <DataCell label={labels.createdAt} pad={PAD} className="text-xs text-slate-700 tabular-nums md:truncate">
        {row.created}
      </DataCell>
      <DataCell label={labels.decidedAt} pad={PAD} className="text-xs text-slate-700 tabular-nums md:truncate">
        {row.decided ?? <span className="text-slate-600">{words.notDecided}</span>}
      </DataCell>
      <DataCell label={labels.caseAge} pad={PAD} className="text-xs text-slate-700 tabular-nums md:truncate">
        {row.caseAge ?? dash}
      </DataCell>
      <DataCell label={labels.owner} pad={PAD} className="text-xs text-slate-700 md:truncate" title={row.owner ?? undefined}>
        {row.owner ?? dash}
      </DataCell>
    </DataRow>
  );
}

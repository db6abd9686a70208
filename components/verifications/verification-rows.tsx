"use client";

import { AppLink as Link } from "@/components/ui/app-link";
import { Badge } from "@/components/ui/badge";
import { DataCell, DataRow } from "@/components/ui/data-table";
import { LinkPending } from "@/components/ui/link-pending";

import { detailHref } from "./detail-href";
import { ID_SLOT, type RowView, type RowWords } from "./row-view";
import { CompactStepBadge, stateBadge } from "./status-badge";

/*
 * The list's rows, drawn from what the server worked out for each (./verification-table.tsx, `useRowViews`): its
 * words, dates and numbers already written in the member's language, its badges' tones. So the page carries each
 * row once as that short value, not its whole markup a second time for the browser's React, and the browser
 * needs no catalogue, formatter or rule to draw it.
 */

/** `listQuery`: the list's query (filters and sort), which each row's link carries to the detail. */
export function VerificationRows({ rows, words, listQuery }: { rows: RowView[]; words: RowWords; listQuery: string }) {
  return rows.map((row) => <Row key={row.id} row={row} words={words} listQuery={listQuery} />);
}

/*
 * A page holds 100 of these, so each is written short: the cells' looks are one class each (app/globals.css, "The
 * verifications list"), the cells' labels on a phone are the table's (DataTable `columns`), an empty cell is dimmed by
 * its class, and the table (`.vlist`) gives every cell its padding and every row its one line.
 */
function Row({ row, words, listQuery }: { row: RowView; words: RowWords; listQuery: string }) {
  const look = (value: unknown, classes: string) => (value === null ? `${classes} dim`.trim() : classes);
  return (
    <DataRow>
      <DataCell rowHeader kind="title" pad="">
        <Link href={detailHref(row.id, listQuery)} className="id-link" title={row.id} aria-label={words.open.replace(ID_SLOT, row.id)}>
          {row.id}
          <LinkPending />
        </Link>
      </DataCell>
      <DataCell pad="" className="cell-code" title={row.masked ? words.masked : undefined}>
        {row.document}
        {row.masked ? <span className="sr-only">{` (${words.masked})`}</span> : null}
      </DataCell>
      <DataCell pad="">{stateBadge(words.states[row.status]!)}</DataCell>
      <DataCell pad="" className={look(row.refId, "cell-text")} title={row.refId ?? undefined}>
        {row.refId ?? words.none}
      </DataCell>
      <DataCell pad="">
        <ul className="steps">
          {row.steps.map((step) => (
            <CompactStepBadge key={step} view={words.steps[step]!} />
          ))}
        </ul>
      </DataCell>
      <DataCell pad="" className="cell-num">
        {row.identity}
      </DataCell>
      <DataCell pad="" className="cell-num">
        {row.risk}
      </DataCell>
      <DataCell pad="" className={look(row.flags, "")}>
        {row.flags ? (
          <span className="chips" title={row.flags.title}>
            {row.flags.badges.map((badge) => (
              <Badge key={badge.text} tone={badge.tone}>
                {badge.text}
              </Badge>
            ))}
          </span>
        ) : (
          words.none
        )}
      </DataCell>
      <DataCell pad="" className="cell-date">
        {row.created}
      </DataCell>
      <DataCell pad="" className={look(row.decided, "cell-date")}>
        {row.decided ?? words.notDecided}
      </DataCell>
      <DataCell pad="" className={look(row.caseAge, "cell-date")}>
        {row.caseAge ?? words.none}
      </DataCell>
      <DataCell pad="" className={look(row.owner, "cell-note")} title={row.owner ?? undefined}>
        {row.owner ?? words.none}
      </DataCell>
    </DataRow>
  );
}

"use client";

import { useState, type ReactNode } from "react";

import { AUDIT_CELL_CLASS } from "@/components/audit-trail/outcome-tone";
import { BareButton } from "@/components/ui/button";
import { DataCell, DataRow } from "@/components/ui/data-table";

/*
 * A page view's events (./audit-event-table.tsx): the summary row, whose button opens and closes the rows under it.
 * Every cell arrives drawn; this part only holds whether the group is open. The rows stay in the table while closed
 * (hidden), so the button controls real rows.
 */

export function AuditGroupRows({
  summary,
  label,
  show,
  hide,
  before,
  after,
  rows,
}: {
  /** The button's text: the case opened, or the page view, with its count. */
  summary: string;
  /** The "what" column's name, the label of the button's cell on a phone. */
  label: string;
  show: string;
  hide: string;
  /** The summary's cells before the button's (when, who) and after it (why, result, from). */
  before: ReactNode;
  after: ReactNode;
  /** The events, newest first, each with its cells. */
  rows: Array<{ id: number; cells: ReactNode }>;
}) {
  const [open, setOpen] = useState(false);
  const rowIds = rows.map((row) => `audit-event-${row.id}`);
  return (
    <>
      <DataRow data-group-size={rows.length}>
        {before}
        <DataCell label={label} className={AUDIT_CELL_CLASS} colSpan={2}>
          <BareButton
            type="button"
            aria-expanded={open}
            aria-controls={rowIds.join(" ")}
            onClick={() => setOpen((value) => !value)}
            className="text-left font-medium text-brand-800 underline"
          >
            {summary}
          </BareButton>
          <span className="block text-xs text-slate-600">{open ? hide : show}</span>
        </DataCell>
        {after}
      </DataRow>
      {rows.map((row, index) => (
        <DataRow
          key={row.id}
          id={rowIds[index]}
          hidden={!open}
          className="max-md:border-l-brand-200 bg-slate-50 max-md:border-l-4"
          data-event-id={row.id}
        >
          {row.cells}
        </DataRow>
      ))}
    </>
  );
}

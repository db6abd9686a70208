"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { DataBody, DataHead, DataHeader, DataTable } from "@/components/ui/data-table";
import type { CaseSummary } from "@/lib/cases/types";

import { PickAll, type BulkSelection } from "./bulk-pick";
import { CaseQueueRow, COLUMNS } from "./case-queue-row";
import { useQueueKeyboard } from "./use-queue-keyboard";

export type { BulkSelection } from "./bulk-pick";

/*
 * The queue as a table with keyboard work: j/k move the selection, Enter opens it, a assigns it to me,
 * ? lists the shortcuts. The selected row is marked for assistive technology and scrolled into view.
 * With a bulk selection: x picks or unpicks the focused row, Shift+x (or Shift+click on a checkbox) picks
 * every row from the last one picked to this one.
 */
export function CaseQueueTable({
  items,
  viewerId,
  context,
  onHelp,
  onClaimed,
  bulk,
}: {
  bulk?: BulkSelection;
  items: CaseSummary[];
  viewerId: string;
  /** The queue's tab, filters and sort as a query (lib/cases/queue-context.ts): the case page keeps it. */
  context: string;
  onHelp: () => void;
  /** After `a` assigned a case (or was refused): the queue reads its view again. */
  onClaimed: () => void;
}) {
  const t = useTranslations("cases.queue");
  const { selected, select, pick, message, rows } = useQueueKeyboard({ items, context, onHelp, onClaimed, bulk });
  // "Overdue" is judged against when the list was shown (a render must not read the clock).
  const [now] = useState(() => Date.now());

  // The status line stays when the list empties: claiming the last unassigned case must still say so.
  const status = (
    <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-700">
      {message}
    </p>
  );
  if (items.length === 0)
    return (
      <div>
        {status}
        <p className="rounded-md border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">{t("empty")}</p>
      </div>
    );

  return (
    <div>
      {status}
      {/* Below md the table's header (with the pick-all box) is not drawn: the box comes here instead. */}
      {bulk ? (
        <label className="mb-2 flex items-center gap-2 text-sm md:hidden">
          <PickAll items={items} bulk={bulk} />
          <span>{t("bulk.all")}</span>
        </label>
      ) : null}
      {/* One card per case below md (components/ui/data-table.tsx): nothing scrolls sideways on a phone. */}
      <DataTable caption={t("caption")} label={t("caption")} tableClassName="text-left">
        <DataHead>
          {bulk ? (
            <DataHeader pad="px-3 py-1.5" className="align-middle">
              <span className="sr-only">{t("bulk.pickColumn")}</span>
              <PickAll items={items} bulk={bulk} label={t("bulk.all")} />
            </DataHeader>
          ) : null}
          {COLUMNS.map((column) => (
            <DataHeader key={column}>{t(`columns.${column}`)}</DataHeader>
          ))}
        </DataHead>
        <DataBody>
          {items.map((item, index) => (
            <CaseQueueRow
              key={item.publicId}
              item={item}
              selected={index === selected}
              viewerId={viewerId}
              context={context}
              now={now}
              bulk={bulk}
              rowRef={(element) => {
                rows.current[index] = element;
              }}
              onSelect={() => select(index)}
              onPick={(extend) => {
                select(index);
                pick(index, extend);
              }}
            />
          ))}
        </DataBody>
      </DataTable>
    </div>
  );
}

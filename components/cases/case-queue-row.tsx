"use client";

import { useTranslations } from "next-intl";
import { useRef, type Ref } from "react";

import { AppLink as Link } from "@/components/ui/app-link";
import { DataCell, DataRow } from "@/components/ui/data-table";
import { useDateTime } from "@/components/ui/use-formatters";
import { caseHref } from "@/lib/cases/queue-context";
import type { CaseSummary } from "@/lib/cases/types";

import type { BulkSelection } from "./bulk-pick";
import { OtherOpenCaseBadge, PriorityBadge, StateBadge } from "./case-badges";

/*
 * Six columns that fit 1440 px with the navigation beside them, one line each (a row stays as tall as its text):
 * the case, the person (their name, cut short with the whole on hover, then the masked document), the priority with
 * why (the flags are its first reasons, "In review" when there is none), the due time (the verification's date on
 * hover), the assignee and the state. The name comes masked from the server for a member without
 * personal_data.unmasked (lib/cases/server/queue.ts): the row shows what it is given.
 */
export const COLUMNS = ["case", "person", "priority", "due", "assignee", "state"] as const;

/** Why the case is here and how pressing it is: "PEP · overdue 3 h", and a badge when its person has another open case. */
function WhyAndPriority({ item }: { item: CaseSummary }) {
  const t = useTranslations("cases.queue");
  const lead = item.flags.length === 0 && item.upstreamStatus === "review" ? [t("inReview")] : [];
  return (
    <span className="flex flex-wrap gap-1 md:flex-nowrap">
      <PriorityBadge priority={item.priority} lead={lead} />
      {item.otherOpenCase ? <OtherOpenCaseBadge /> : null}
    </span>
  );
}

/** The pick box of a row: Space or a click (Shift for a range); the click does not also pick the row twice. */
function PickBox({ item, bulk, onPick }: { item: CaseSummary; bulk: BulkSelection; onPick: (extend: boolean) => void }) {
  const t = useTranslations("cases.queue");
  const shiftPick = useRef(false);
  return (
    <input
      type="checkbox"
      className="size-4"
      checked={bulk.picked.has(item.publicId)}
      aria-label={t("bulk.pick", { publicId: item.publicId })}
      onClick={(event) => {
        event.stopPropagation();
        shiftPick.current = event.shiftKey;
      }}
      onChange={() => {
        onPick(shiftPick.current);
        shiftPick.current = false;
      }}
    />
  );
}

/** One case of the queue: a table row from md up, a card below. `now`: when the list was shown, for "overdue". */
export function CaseQueueRow({
  item,
  selected,
  viewerId,
  context,
  now,
  bulk,
  rowRef,
  onSelect,
  onPick,
}: {
  item: CaseSummary;
  selected: boolean;
  viewerId: string;
  context: string;
  now: number;
  bulk: BulkSelection | undefined;
  rowRef: Ref<HTMLTableRowElement>;
  onSelect: () => void;
  /** The row's box was ticked: select it and pick it (`extend`: Shift, a range). */
  onPick: (extend: boolean) => void;
}) {
  const t = useTranslations("cases.queue");
  const dateTime = useDateTime();
  const overdue = item.status === "open" && new Date(item.dueAt).getTime() < now;
  const label = (column: (typeof COLUMNS)[number]) => t(`columns.${column}`);
  return (
    <DataRow
      ref={rowRef}
      aria-current={selected ? "true" : undefined}
      onClick={onSelect}
      className={selected ? "bg-brand-50 outline-2 -outline-offset-2 outline-brand-700" : "hover:bg-slate-50"}
      data-testid="case-row"
      data-picked={bulk?.picked.has(item.publicId) ? "true" : undefined}
    >
      {bulk ? (
        <DataCell label={t("bulk.pickColumn")} pad="px-3 py-1">
          <PickBox item={item} bulk={bulk} onPick={onPick} />
        </DataCell>
      ) : null}
      <DataCell kind="title" pad="px-3 py-1" className="font-mono text-xs md:whitespace-nowrap">
        <Link href={caseHref(item.publicId, context)} className="text-brand-800 underline underline-offset-2">
          {item.publicId.slice(0, 13)}
          <span className="sr-only">{item.publicId.slice(13)}</span>
        </Link>
      </DataCell>
      <DataCell label={label("person")} pad="px-3 py-1" className="text-xs md:whitespace-nowrap">
        <span className="flex min-w-0 items-baseline gap-x-2 max-md:flex-wrap">
          {item.personName ? (
            <span className="md:max-w-44 md:truncate" title={item.personName} data-testid="case-person-name">
              {item.personName}
            </span>
          ) : null}
          <span className="font-mono">{item.documentMasked ?? "—"}</span>
        </span>
      </DataCell>
      <DataCell label={label("priority")} pad="px-3 py-1" className="md:max-w-md" data-testid="case-priority">
        <WhyAndPriority item={item} />
      </DataCell>
      <DataCell
        label={label("due")}
        pad="px-3 py-1"
        className={`tabular-nums md:whitespace-nowrap ${overdue ? "font-semibold text-red-800" : ""}`}
        title={t("dueTitle", { date: dateTime(item.verificationCreatedAt ?? item.openedAt) ?? "" })}
      >
        {dateTime(item.dueAt)}
        {overdue ? <span className="sr-only"> · {t("overdue")}</span> : null}
      </DataCell>
      <DataCell label={label("assignee")} pad="px-3 py-1" className="md:max-w-48 md:truncate">
        {item.assignee ? (item.assignee.id === viewerId ? t("you") : item.assignee.name || item.assignee.email) : t("unassigned")}
      </DataCell>
      <DataCell label={label("state")} pad="px-3 py-1" className="md:whitespace-nowrap">
        <StateBadge
          status={item.status}
          outcomeState={item.outcomeState}
          recommendation={item.recommendation}
          closedReason={item.closedReason}
        />
      </DataCell>
    </DataRow>
  );
}

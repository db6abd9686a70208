"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useRef, type Ref } from "react";

import { Badge } from "@/components/ui/badge";
import { DataCell, DataRow } from "@/components/ui/data-table";
import { useDateTime } from "@/components/ui/use-formatters";
import { caseHref } from "@/lib/cases/queue-context";
import type { CaseSummary } from "@/lib/cases/types";

import type { BulkSelection } from "./bulk-pick";
import { FlagBadges, OtherOpenCaseBadge, PriorityBadge, StateBadge } from "./case-badges";

export const COLUMNS = ["verification", "document", "flags", "priority", "age", "due", "assignee", "state"] as const;

/**
 * Why a case is in the queue: its red flags, or, with none, that the verification is in review (a flagged case
 * in review says both, the status in its title, so the row stays one line).
 */
function WhyHere({ item }: { item: CaseSummary }) {
  const t = useTranslations("cases.queue");
  const inReview = item.upstreamStatus === "review";
  // One line at md and up (the badges side by side, never stacked): a row stays as tall as its text.
  if (item.flags.length === 0 && item.otherOpenCase)
    return (
      <span className="flex flex-wrap gap-1 md:flex-nowrap">
        {inReview ? <Badge tone="info">{t("inReview")}</Badge> : null}
        <OtherOpenCaseBadge />
      </span>
    );
  if (item.flags.length === 0) return inReview ? <Badge tone="info">{t("inReview")}</Badge> : <FlagBadges flags={[]} />;
  return (
    <span title={inReview ? t("inReview") : undefined} className="flex flex-wrap gap-1 md:flex-nowrap">
      <FlagBadges flags={item.flags} oneLine />
      {inReview ? <span className="sr-only"> · {t("inReview")}</span> : null}
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
        <DataCell pad="px-3 py-1.5">
          <PickBox item={item} bulk={bulk} onPick={onPick} />
        </DataCell>
      ) : null}
      <DataCell kind="title" pad="px-3 py-1.5" className="font-mono text-xs">
        <Link href={caseHref(item.publicId, context)} className="text-brand-800 underline underline-offset-2">
          {item.publicId.slice(0, 13)}
          <span className="sr-only">{item.publicId.slice(13)}</span>
        </Link>
      </DataCell>
      <DataCell label={label("document")} pad="px-3 py-1.5" className="font-mono text-xs md:whitespace-nowrap">
        {item.documentMasked ?? "—"}
      </DataCell>
      <DataCell label={label("flags")} pad="px-3 py-1.5" className="md:whitespace-nowrap">
        <WhyHere item={item} />
      </DataCell>
      <DataCell label={label("priority")} pad="px-3 py-1.5" className="md:whitespace-nowrap">
        <span className="flex flex-wrap gap-1 md:flex-nowrap">
          <PriorityBadge priority={item.priority} />
          {/* Escalated past its due time (lib/cases/server/escalation.ts): raised and its queue's leads told. */}
          {item.escalatedAt && item.status === "open" ? <Badge tone="danger">{t("overdue")}</Badge> : null}
        </span>
      </DataCell>
      <DataCell
        label={label("age")}
        pad="px-3 py-1.5"
        className="md:whitespace-nowrap"
        title={t("ageTitle", { date: dateTime(item.openedAt) ?? "" })}
      >
        {dateTime(item.verificationCreatedAt ?? item.openedAt)}
      </DataCell>
      <DataCell label={label("due")} pad="px-3 py-1.5" className={`md:whitespace-nowrap ${overdue ? "font-semibold text-red-800" : ""}`}>
        {dateTime(item.dueAt)}
        {overdue ? ` · ${t("overdue")}` : null}
      </DataCell>
      <DataCell label={label("assignee")} pad="px-3 py-1.5">
        {item.assignee ? (item.assignee.id === viewerId ? t("you") : item.assignee.email) : t("unassigned")}
      </DataCell>
      <DataCell label={label("state")} pad="px-3 py-1.5" className="md:whitespace-nowrap">
        <StateBadge status={item.status} outcomeState={item.outcomeState} recommendation={item.recommendation} />
      </DataCell>
    </DataRow>
  );
}

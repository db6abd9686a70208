"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";

import { Badge } from "@/components/ui/badge";
import { DataBody, DataCell, DataHead, DataHeader, DataRow, DataTable } from "@/components/ui/data-table";
import { useDateTime } from "@/components/ui/use-formatters";
import { useClaimFromQueue } from "@/lib/cases/hooks";
import { caseHref } from "@/lib/cases/queue-context";
import type { CaseSummary } from "@/lib/cases/types";

import { FlagBadges, OtherOpenCaseBadge, PriorityBadge, StateBadge } from "./case-badges";

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

const COLUMNS = ["verification", "document", "flags", "priority", "age", "due", "assignee", "state"] as const;

/** A selection: the case at `index`, remembered by its id. */
function choose(items: CaseSummary[], index: number): { publicId: string | null; index: number } {
  return { publicId: items[index]?.publicId ?? null, index };
}

/** Typing in a field must never trigger a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName));
}

/** Cases picked for a bulk action (issue 23): held by the page, which shows the bulk bar. */
export interface BulkSelection {
  picked: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
}

/** Pick or unpick every case on this page: the pick column's header (mixed while some are picked). */
function PickAll({ items, bulk, label }: { items: CaseSummary[]; bulk: BulkSelection; label?: string }) {
  const box = useRef<HTMLInputElement>(null);
  const onPage = items.map((item) => item.publicId);
  const pickedOnPage = onPage.filter((publicId) => bulk.picked.has(publicId)).length;
  useEffect(() => {
    if (box.current) box.current.indeterminate = pickedOnPage > 0 && pickedOnPage < onPage.length;
  }, [pickedOnPage, onPage.length]);
  return (
    <input
      ref={box}
      type="checkbox"
      className="size-4"
      aria-label={label}
      title={label}
      checked={onPage.length > 0 && pickedOnPage === onPage.length}
      onChange={(event) => {
        const next = new Set(bulk.picked);
        for (const publicId of onPage) {
          if (event.target.checked) next.add(publicId);
          else next.delete(publicId);
        }
        bulk.onChange(next);
      }}
    />
  );
}

/** The ids from `from` to `to` (either order), for a Shift range. */
function range(items: CaseSummary[], from: number, to: number): string[] {
  const [start, end] = from <= to ? [from, to] : [to, from];
  return items.slice(start, end + 1).map((item) => item.publicId);
}

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
  bulk,
}: {
  bulk?: BulkSelection;
  items: CaseSummary[];
  viewerId: string;
  /** The queue's tab, filters and sort as a query (lib/cases/queue-context.ts): the case page keeps it. */
  context: string;
  onHelp: () => void;
}) {
  const t = useTranslations("cases.queue");
  const dateTime = useDateTime();
  const router = useRouter();
  const claim = useClaimFromQueue();
  // The selection follows its case, not its position: a refetch (a claim, a new case arriving) can move the
  // rows, and Enter or "a" must act on the case the analyst chose. When that case has left the list, the
  // selection stays at its place (clamped: the list can shrink under it). Computed here, not in an effect.
  const [chosen, setChosen] = useState<{ publicId: string | null; index: number }>({ publicId: null, index: 0 });
  const found = chosen.publicId === null ? -1 : items.findIndex((item) => item.publicId === chosen.publicId);
  const selected = found >= 0 ? found : Math.min(chosen.index, Math.max(items.length - 1, 0));

  const [message, setMessage] = useState<string | null>(null);
  // Where the last pick was made: a Shift range runs from here.
  const anchor = useRef<number | null>(null);
  const shiftPick = useRef(false);
  const pick = useCallback(
    (index: number, extend: boolean) => {
      if (!bulk) return;
      const item = items[index];
      if (!item) return;
      const next = new Set(bulk.picked);
      if (extend && anchor.current !== null) for (const id of range(items, anchor.current, index)) next.add(id);
      else if (next.has(item.publicId)) next.delete(item.publicId);
      else next.add(item.publicId);
      anchor.current = index;
      bulk.onChange(next);
    },
    [bulk, items],
  );
  const rows = useRef<Array<HTMLTableRowElement | null>>([]);
  // "Overdue" is judged against when the list was shown (a render must not read the clock).
  const [now] = useState(() => Date.now());

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (document.querySelector("[role=dialog]")) return;
      const current = items[selected];
      if (event.key === "j") setChosen(choose(items, Math.min(selected + 1, items.length - 1)));
      else if (event.key === "k") setChosen(choose(items, Math.max(selected - 1, 0)));
      else if (
        event.key === "Enter" &&
        current &&
        !(event.target instanceof HTMLAnchorElement || event.target instanceof HTMLButtonElement)
      )
        router.push(caseHref(current.publicId, context));
      else if (event.key === "a" && current)
        claim.mutate(current.publicId, {
          onSuccess: () => setMessage(t("assigned", { publicId: current.publicId })),
          onError: (error) => setMessage(error.message),
        });
      else if ((event.key === "x" || event.key === "X") && bulk && current) pick(selected, event.shiftKey);
      else if (event.key === "?") onHelp();
      else return;
      event.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [items, selected, router, claim, onHelp, context, t, bulk, pick]);

  useEffect(() => {
    rows.current[selected]?.scrollIntoView?.({ block: "nearest" });
  }, [selected]);

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
          {items.map((item, index) => {
            const overdue = item.status === "open" && new Date(item.dueAt).getTime() < now;
            const label = (column: (typeof COLUMNS)[number]) => t(`columns.${column}`);
            return (
              <DataRow
                key={item.publicId}
                ref={(element) => {
                  rows.current[index] = element;
                }}
                aria-current={index === selected ? "true" : undefined}
                onClick={() => setChosen(choose(items, index))}
                className={index === selected ? "bg-brand-50 outline-2 -outline-offset-2 outline-brand-700" : "hover:bg-slate-50"}
                data-testid="case-row"
                data-picked={bulk?.picked.has(item.publicId) ? "true" : undefined}
              >
                {bulk ? (
                  <DataCell pad="px-3 py-1.5">
                    <input
                      type="checkbox"
                      className="size-4"
                      checked={bulk.picked.has(item.publicId)}
                      aria-label={t("bulk.pick", { publicId: item.publicId })}
                      // Space or a click on the box (Shift for a range); the click does not also pick the row twice.
                      onClick={(event) => {
                        event.stopPropagation();
                        shiftPick.current = event.shiftKey;
                      }}
                      onChange={() => {
                        setChosen(choose(items, index));
                        pick(index, shiftPick.current);
                        shiftPick.current = false;
                      }}
                    />
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
                <DataCell
                  label={label("due")}
                  pad="px-3 py-1.5"
                  className={`md:whitespace-nowrap ${overdue ? "font-semibold text-red-800" : ""}`}
                >
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
          })}
        </DataBody>
      </DataTable>
    </div>
  );
}

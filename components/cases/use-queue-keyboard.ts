"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";

import { useAppRouter } from "@/components/ui/app-link";
import { caseHref } from "@/lib/cases/queue-context";
import { claimCase } from "@/lib/cases/queue-requests";
import type { CaseSummary } from "@/lib/cases/types";
import { useRequest } from "@/lib/shared/api-client/use-request";
import { applyEarlyKeys } from "@/lib/shared/early-keys";

import { pickRange, type BulkSelection } from "./bulk-pick";
import { isTyping } from "./typing";

/** The queue's keys a press may have reached before its listener did (Enter is not kept by the recorder). */
const QUEUE_KEY = /^[jkaxX?]$/;

/** A selection: the case at `index`, remembered by its id. */
function choose(items: CaseSummary[], index: number): { publicId: string | null; index: number } {
  return { publicId: items[index]?.publicId ?? null, index };
}

/**
 * The queue's selection and keys: j/k move the selection, Enter opens it, a assigns it to me, ? lists the
 * shortcuts; with a bulk selection, x picks or unpicks the selected row and Shift+x picks every row from the
 * last one picked to this one. The selected row is scrolled into view. `message` says what a claim did; done or
 * refused (someone else may hold it now), the queue reads its view again (`onClaimed`).
 */
export function useQueueKeyboard({
  items,
  context,
  onHelp,
  onClaimed,
  bulk,
}: {
  items: CaseSummary[];
  context: string;
  onHelp: () => void;
  onClaimed: () => void;
  bulk: BulkSelection | undefined;
}) {
  const t = useTranslations("cases.queue");
  const router = useAppRouter();
  const claim = useRequest(claimCase);
  // The selection follows its case, not its position: a refetch (a claim, a new case arriving) can move the
  // rows, and Enter or "a" must act on the case the analyst chose. When that case has left the list, the
  // selection stays at its place (clamped: the list can shrink under it). Computed here, not in an effect.
  const [chosen, setChosen] = useState<{ publicId: string | null; index: number }>({ publicId: null, index: 0 });
  const found = chosen.publicId === null ? -1 : items.findIndex((item) => item.publicId === chosen.publicId);
  const selected = found >= 0 ? found : Math.min(chosen.index, Math.max(items.length - 1, 0));

  const [message, setMessage] = useState<string | null>(null);
  // Where the last pick was made: a Shift range runs from here.
  const anchor = useRef<number | null>(null);
  const pick = useCallback(
    /** Picks or unpicks the row at `index` (Shift: the range from the last pick) in `from`; gives the set it made. */
    (index: number, extend: boolean, from?: ReadonlySet<string>): ReadonlySet<string> | undefined => {
      if (!bulk) return undefined;
      const item = items[index];
      if (!item) return from;
      const next = new Set(from ?? bulk.picked);
      if (extend && anchor.current !== null) for (const id of pickRange(items, anchor.current, index)) next.add(id);
      else if (next.has(item.publicId)) next.delete(item.publicId);
      else next.add(item.publicId);
      anchor.current = index;
      bulk.onChange(next);
      return next;
    },
    [bulk, items],
  );
  const rows = useRef<Array<HTMLTableRowElement | null>>([]);

  useEffect(() => {
    // Where the keys act from: kept here so keys applied together (those pressed before this listener ran) each
    // act on the row the one before left selected, and on the picks it made.
    let position = selected;
    let picked: ReadonlySet<string> | undefined;
    /** One key; false when it is not the queue's. */
    function act(key: string): boolean {
      const current = items[position];
      if (key === "j" || key === "k") {
        position = key === "j" ? Math.min(position + 1, items.length - 1) : Math.max(position - 1, 0);
        setChosen(choose(items, position));
      } else if (key === "a" && current)
        claim.mutate(current.publicId, {
          onSuccess: () => setMessage(t("assigned", { publicId: current.publicId })),
          onError: (error) => setMessage(error.message),
          onSettled: onClaimed,
        });
      else if ((key === "x" || key === "X") && bulk && current) picked = pick(position, key === "X", picked);
      else if (key === "?") onHelp();
      else return false;
      return true;
    }
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (document.querySelector("[role=dialog]")) return;
      const current = items[position];
      if (event.key === "Enter" && current && !(event.target instanceof HTMLAnchorElement || event.target instanceof HTMLButtonElement))
        router.push(caseHref(current.publicId, context));
      else if (!act(event.key)) return;
      event.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    // Keys pressed before this listener ran (the rows are drawn on the server, so before the page's code ran; the
    // shell's inline recorder kept them): applied in order, until one opens a dialog (the shortcuts' list).
    const stopEarly = applyEarlyKeys(QUEUE_KEY, (early) => {
      for (const key of early) {
        if (document.querySelector("[role=dialog]")) break;
        act(key);
        if (key === "?") break;
      }
    });
    return () => {
      stopEarly();
      window.removeEventListener("keydown", onKey);
    };
  }, [items, selected, router, claim, onHelp, onClaimed, context, t, bulk, pick]);

  useEffect(() => {
    rows.current[selected]?.scrollIntoView?.({ block: "nearest" });
  }, [selected]);

  return { selected, select: (index: number) => setChosen(choose(items, index)), pick, message, rows };
}

"use client";

import { useCallback, useEffect, useRef, useState } from "react";

import { useAppRouter } from "@/components/ui/app-link";
import { useHydrated } from "@/components/ui/use-hydrated";
import { caseHref, queueHref } from "@/lib/cases/queue-context";
import type { Recommendation } from "@/lib/cases/rules";
import type { CaseDetail } from "@/lib/cases/types";
import { applyEarlyKeys } from "@/lib/shared/early-keys";

import { byId } from "./case-panel-focus";
import { isTyping } from "./typing";

/** What the keys act on once the panel is drawn: its case (null: none), and its decision (takes the case first when the team's setting says so). */
export interface CaseKeyTarget {
  detail: CaseDetail | null;
  decide: (value: Recommendation) => boolean;
}

interface Moves {
  push: (href: string) => void;
  context: string;
  onHelp: () => void;
}

/** The keys the page acts on outside a field (CASE_SHORTCUTS): the ones kept while the panel loads. */
const SHORTCUT_KEY = /^(?:[anpxecsyjku?]|[1-9])$/;

/** One key on the drawn panel, through its own controls (a click, a focus, a form submit); false when it did nothing. */
function act(key: string, { detail, decide }: CaseKeyTarget, { push, context, onHelp }: Moves): boolean {
  const click = (id: string) => {
    const element = byId(id);
    element?.click();
    return !!element;
  };
  const focus = (id: string) => {
    const element = byId(id);
    element?.focus();
    return !!element;
  };
  if (key === "a") return click("case-assign");
  if (key === "n") return focus("case-note");
  if (key === "p") return decide("approve");
  if (key === "x") return decide("reprove");
  if (key === "e") return decide("escalate");
  if (/^[1-9]$/.test(key)) {
    const box = byId("case-reasons")?.querySelectorAll<HTMLInputElement>("input[type=checkbox]")[Number(key) - 1];
    box?.click();
    box?.focus();
    return !!box;
  }
  if (key === "c") return focus("case-outcome-comment") || focus("case-confirm-comment");
  if (key === "s") {
    const form = byId("case-outcome-form") as HTMLFormElement | null;
    form?.requestSubmit();
    return !!form;
  }
  if (key === "y") return click("case-agree");
  if (key === "j" && detail?.next) push(caseHref(detail.next, context));
  else if (key === "k" && detail?.previous) push(caseHref(detail.previous, context));
  else if (key === "u") push(queueHref(context));
  else if (key === "?") onHelp();
  else return false;
  return true;
}

/**
 * The case page's shortcuts (CASE_SHORTCUTS, listed on `?`). Keys act through the panel's own controls, so what a
 * key does is exactly what the control does, with the same checks and messages.
 *
 * The listener is registered as soon as the page runs, before the case has arrived: a key pressed while the panel
 * loads is kept (`waiting` says so; `listening` once keys are heard at all) and applied, in order, when the panel
 * calls `ready` with what it drew. No key is dropped for arriving early (issue 32).
 */
export function useCaseShortcuts({ context, onHelp }: { context: string; onHelp: () => void }) {
  const router = useAppRouter();
  const target = useRef<CaseKeyTarget | null>(null);
  const queued = useRef<string[]>([]);
  const moves = useRef<Moves>({ push: (href) => router.push(href), context, onHelp });
  const [waiting, setWaiting] = useState(false);
  // The listener is registered by the first commit's effects; the hydrated render comes after them.
  const listening = useHydrated();
  useEffect(() => {
    moves.current = { push: (href) => router.push(href), context, onHelp };
  }, [router, context, onHelp]);
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.metaKey) return;
      if (document.querySelector("[role=dialog]")) return;
      const element = event.target as HTMLElement | null;
      if (isTyping(element) && element?.getAttribute("type") !== "checkbox" && element?.getAttribute("type") !== "radio") {
        // In a field: Ctrl+Enter sends its form, Escape leaves the field for the shortcuts.
        if (event.ctrlKey && event.key === "Enter") {
          const form = element?.closest("form");
          if (form) {
            event.preventDefault();
            form.requestSubmit();
          }
        } else if (event.key === "Escape") {
          byId("case-panel-title")?.focus();
        }
        return;
      }
      if (event.ctrlKey) return;
      if (!target.current) {
        if (!SHORTCUT_KEY.test(event.key)) return;
        queued.current.push(event.key);
        setWaiting(true);
        event.preventDefault();
        return;
      }
      if (act(event.key, target.current, moves.current)) event.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    // Keys pressed before this code ran (the shell's inline recorder): kept like those pressed while the case loads.
    const stopEarly = applyEarlyKeys(SHORTCUT_KEY, (early) => {
      // (The panel's loading line is on screen meanwhile: no state to set from here.)
      if (target.current) for (const key of early) act(key, target.current, moves.current);
      else queued.current.push(...early);
    });
    return () => {
      stopEarly();
      window.removeEventListener("keydown", onKey);
    };
  }, []);
  /** The panel is drawn (its controls are in the page): keys now act on it, and those kept meanwhile are applied. */
  const ready = useCallback((next: CaseKeyTarget | null) => {
    target.current = next;
    if (!next || queued.current.length === 0) return;
    const keys = queued.current.splice(0);
    setWaiting(false);
    for (const key of keys) if (!document.querySelector("[role=dialog]")) act(key, next, moves.current);
  }, []);
  return { ready, waiting, listening };
}

"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

import { caseHref, queueHref } from "@/lib/cases/queue-context";
import type { Recommendation } from "@/lib/cases/rules";
import type { CaseDetail } from "@/lib/cases/types";

import { byId, reasonFocus } from "./case-panel-focus";
import { isTyping } from "./typing";

/**
 * The case page's shortcuts (CASE_SHORTCUTS, listed on `?`). Keys act through the panel's own controls (a
 * click, a focus, a form submit), so what a key does is exactly what the control does, with the same checks
 * and messages.
 */
export function useCaseShortcuts({ detail, context, onHelp }: { detail: CaseDetail; context: string; onHelp: () => void }) {
  const router = useRouter();
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.metaKey) return;
      if (document.querySelector("[role=dialog]")) return;
      const target = event.target as HTMLElement | null;
      if (isTyping(target) && target?.getAttribute("type") !== "checkbox" && target?.getAttribute("type") !== "radio") {
        // In a field: Ctrl+Enter sends its form, Escape leaves the field for the shortcuts.
        if (event.ctrlKey && event.key === "Enter") {
          const form = target?.closest("form");
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
      const recommend = (value: Recommendation) => {
        if (!byId(`case-rec-${value}`)) return false;
        // The reasons of that recommendation appear after the render (and after the catalogue has loaded):
        // the decision form then gives the first one the focus.
        reasonFocus.pending = true;
        click(`case-rec-${value}`);
        return true;
      };
      let handled = true;
      if (event.key === "a") handled = click("case-assign");
      else if (event.key === "n") handled = focus("case-note");
      else if (event.key === "p") handled = recommend("approve");
      else if (event.key === "x") handled = recommend("reprove");
      else if (event.key === "e") handled = recommend("escalate");
      else if (/^[1-9]$/.test(event.key)) {
        const box = byId("case-reasons")?.querySelectorAll<HTMLInputElement>("input[type=checkbox]")[Number(event.key) - 1];
        handled = !!box;
        box?.click();
        box?.focus();
      } else if (event.key === "c") handled = focus("case-outcome-comment") || focus("case-confirm-comment");
      else if (event.key === "s") {
        const form = byId("case-outcome-form") as HTMLFormElement | null;
        handled = !!form;
        form?.requestSubmit();
      } else if (event.key === "y") handled = click("case-agree");
      else if (event.key === "j" && detail.next) router.push(caseHref(detail.next, context));
      else if (event.key === "k" && detail.previous) router.push(caseHref(detail.previous, context));
      else if (event.key === "u") router.push(queueHref(context));
      else if (event.key === "?") onHelp();
      else handled = false;
      if (handled) event.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [detail.next, detail.previous, context, router, onHelp]);
}

"use client";

import { useEffect } from "react";

import { isTyping } from "@/components/cases/typing";

/** The case page's key for the person's record beside the document (CASE_SHORTCUTS lists it on `?`). */
export const RECORD_KEY = "l";

/**
 * `l` acts as the lookup's own button: the caller submits its form, so the key runs exactly what a click runs, with
 * the same checks. Never while typing in a field, with a modifier, or under an open dialog, as the case's keys.
 */
export function useRecordKey(enabled: boolean, onKey: () => void) {
  useEffect(() => {
    if (!enabled) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== RECORD_KEY || event.defaultPrevented || event.altKey || event.metaKey || event.ctrlKey) return;
      if (document.querySelector("[role=dialog]") || isTyping(event.target)) return;
      event.preventDefault();
      onKey();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [enabled, onKey]);
}

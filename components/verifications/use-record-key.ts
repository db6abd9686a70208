"use client";

import { useEffect } from "react";

import { isTyping } from "@/components/cases/typing";
import { applyEarlyKeys } from "@/lib/shared/early-keys";

/** The case page's key for the person's record beside the document (CASE_SHORTCUTS lists it on `?`). */
export const RECORD_KEY = "l";
const EARLY_RECORD_KEY = new RegExp(`^${RECORD_KEY}$`);

/**
 * `l` acts as the lookup's own button: the caller submits its form, so the key runs exactly what a click runs, with
 * the same checks. Never while typing in a field, with a modifier, or under an open dialog, as the case's keys. An `l`
 * pressed before this listener was there (the page still loading, or the panel not yet hydrated while the case's
 * keys already were) was kept by the shell's recorder and is applied once it is (lib/shared/early-keys.ts).
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
    const stopEarly = applyEarlyKeys(EARLY_RECORD_KEY, () => {
      if (!document.querySelector("[role=dialog]")) onKey();
    });
    return () => {
      stopEarly();
      window.removeEventListener("keydown", onKeyDown);
    };
  }, [enabled, onKey]);
}

"use client";

import { useEffect } from "react";

/*
 * Focus on the case panel: its controls are found by id (the shortcuts act through them), and the focus is
 * never lost.
 */

export const byId = (id: string) => document.getElementById(id) as HTMLElement | null;

/**
 * After a form of the panel has done its work (a recommendation recorded, a note added, a confirmation): the focus
 * leaves the field for the panel's heading, so the next key (`j`, `u`…) is a shortcut again, never typed into the
 * comment ("Blurry document photo.j", issue 32). Focus the analyst has moved elsewhere meanwhile stays there.
 */
export function leaveForm(form: string) {
  const active = document.activeElement;
  const inForm = !!active && !!byId(form)?.contains(active);
  if (inForm || !active || active === document.body || !active.isConnected) byId("case-panel-title")?.focus({ preventScroll: true });
}

/** Set by a recommend shortcut: the decision form focuses the first reason once it shows that recommendation's reasons. */
export const reasonFocus = { pending: false };

/**
 * Focus is never lost: a control that goes away after an action (assign, record, confirm) hands the focus
 * to the panel's heading, where the shortcuts go on working.
 */
export function useFocusNeverLost() {
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) byId("case-panel-title")?.focus({ preventScroll: true });
  });
}

"use client";

import { useEffect } from "react";

/*
 * Focus on the case panel: its controls are found by id (the shortcuts act through them), and the focus is
 * never lost.
 */

export const byId = (id: string) => document.getElementById(id) as HTMLElement | null;

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

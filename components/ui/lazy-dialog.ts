"use client";

import { useCallback, useEffect, useRef, useState, type ComponentType } from "react";

/*
 * Dialogs loaded when asked for. The Radix half of every dialog (./dialog-content.tsx) and `useLazyDialog`, for a
 * dialog whose own body (and the Dialog wrapper with it, ./dialog.tsx) comes when first asked for: a page whose
 * dialogs are all lazy (the queue's, the list's) carries none of their code in its first load.
 */

let contentLoaded = false;

/** The Radix half of the dialogs; loaded once per tab. */
export const loadDialogContent = () =>
  import("./dialog-content").then((module) => {
    contentLoaded = true;
    return module;
  });

export const dialogContentLoaded = () => contentLoaded;

/** Loads `load` once the page is idle after the calling component mounts, so a first press finds its code here. */
export function usePreloadWhenIdle(load: () => void) {
  useEffect(() => {
    const timer = window.setTimeout(load, 0);
    return () => window.clearTimeout(timer);
  }, [load]);
}

/**
 * A dialog whose own code (its body and what only it imports) is loaded when first asked for rather than with
 * the page. Spread `trigger` on the Button that opens it: it carries what Dialog gives its own trigger
 * (aria-haspopup, aria-expanded, pending while a press waits for the code), and that
 * code, with the Radix half, is loaded once the page is idle after the button mounts, or as soon as the pointer
 * or focus reaches it. `Dialog` is the loaded component (null until then): render it with `open` and
 * `setOpen`. Pressed before its code has arrived, the dialog opens (and takes focus) when it does; the
 * button keeps focus meanwhile, so focus goes back to it on close. If the code cannot be loaded the dialog
 * stays closed and the next press tries again.
 */
export function useLazyDialog<Props>(load: () => Promise<ComponentType<Props>>) {
  const [open, setOpen] = useState(false);
  const [Loaded, setLoaded] = useState<ComponentType<Props> | null>(null);
  const loading = useRef<Promise<void> | null>(null);
  const preload = useCallback(() => {
    void loadDialogContent();
    loading.current ??= load().then(
      (component) => setLoaded(() => component),
      () => {
        loading.current = null;
        setOpen(false);
      },
    );
  }, [load]);
  usePreloadWhenIdle(preload);
  return {
    open,
    setOpen,
    Dialog: Loaded,
    trigger: {
      "aria-haspopup": "dialog" as const,
      "aria-expanded": open,
      // Pressed before the dialog's code arrived, busy with a spinner until the dialog opens (before the page's code
      // runs, the Button itself is disabled). Busy, not disabled: a disabled button loses focus, and focus goes back
      // to the button when the dialog closes.
      busy: open && !Loaded,
      onPointerEnter: preload,
      onFocus: preload,
      onClick: () => {
        preload();
        setOpen(true);
      },
    },
  };
}

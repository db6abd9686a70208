"use client";

import { useEffect, useRef, useState } from "react";

/**
 * A disclosure's open state for a button and the panel it controls (not a modal): opening moves focus into the
 * panel (to what `initialFocus` selects, else the panel itself), Escape closes it and gives focus back to the
 * button, and a pointer down outside both closes it. Used by the notification bell and the saved-views menu.
 */
export function useDisclosure<Panel extends HTMLElement = HTMLDivElement>({ initialFocus }: { initialFocus?: string } = {}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<Panel>(null);

  useEffect(() => {
    if (!open) return;
    (initialFocus ? panel.current?.querySelector<HTMLElement>(initialFocus) : panel.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open, initialFocus]);

  return { open, setOpen, button, panel };
}

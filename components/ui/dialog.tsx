"use client";

import dynamic from "next/dynamic";
import {
  cloneElement,
  createContext,
  isValidElement,
  useCallback,
  useContext,
  useLayoutEffect,
  useRef,
  useState,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from "react";

import { dialogContentLoaded, loadDialogContent, usePreloadWhenIdle } from "./lazy-dialog";

/*
 * A dialog with the product's look. The Radix part (focus trap, Escape, labelling) is in
 * ./dialog-content, loaded once the page is idle after a trigger mounts (and at the latest when the pointer or
 * focus reaches it, or the dialog opens), so no page ships Radix in its first load yet the first press finds it.
 * A press before the code has arrived is kept: the trigger shows it is busy and the dialog opens when the code
 * does (issue 32). Before the page's code runs at all the trigger is disabled, so no press goes unheard. Focus
 * goes back on close to whatever had it when the dialog opened: the trigger, or the row button that opened a
 * confirmation. A dialog whose own body loads when asked for is `useLazyDialog` (./lazy-dialog.ts), which a page
 * can use without this module (nor next/dynamic) in its first load.
 */

const DialogContent = dynamic(loadDialogContent, { ssr: false });

const CloseContext = createContext<() => void>(() => undefined);

type Clickable = ReactElement<{
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  disabled?: boolean;
  "aria-busy"?: boolean;
  onPointerEnter?: () => void;
  onFocus?: () => void;
  "aria-haspopup"?: "dialog";
  "aria-expanded"?: boolean;
}>;

export function Dialog({
  open: controlledOpen,
  onOpenChange,
  trigger,
  title,
  description,
  children,
}: {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = controlledOpen ?? ownOpen;
  const [loaded, setLoaded] = useState(dialogContentLoaded);
  const preload = useCallback(() => void loadDialogContent().then(() => setLoaded(true)), []);
  usePreloadWhenIdle(preload);
  // Mounted from the first opening on, so Radix runs its own closing (and focus handling) each time.
  const [mounted, setMounted] = useState(open);
  const returnFocusTo = useRef<HTMLElement | null>(null);

  function setOpen(next: boolean) {
    if (controlledOpen === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  }

  if (open && !mounted) setMounted(true);

  // Before Radix moves focus into the dialog (its effects run after layout effects).
  useLayoutEffect(() => {
    if (open) returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [open]);

  const triggerElement = isValidElement(trigger)
    ? cloneElement(trigger as Clickable, {
        "aria-haspopup": "dialog",
        "aria-expanded": open,
        // Pressed before the dialog's code arrived: busy until it opens.
        "aria-busy": (open && !loaded) || undefined,
        onPointerEnter: preload,
        onFocus: preload,
        onClick: (event: MouseEvent<HTMLElement>) => {
          (trigger as Clickable).props.onClick?.(event);
          if (!event.defaultPrevented) setOpen(true);
        },
      })
    : trigger;

  return (
    <>
      {triggerElement}
      {mounted ? (
        <CloseContext.Provider value={() => setOpen(false)}>
          <DialogContent
            open={open}
            onOpenChange={setOpen}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              returnFocusTo.current?.focus();
            }}
            title={title}
            description={description}
          >
            {children}
          </DialogContent>
        </CloseContext.Provider>
      ) : null}
    </>
  );
}

/** Closes the dialog it is in when its one child (a button) is clicked. */
export function DialogClose({ children }: { asChild?: boolean; children: ReactElement }) {
  const close = useContext(CloseContext);
  const child = children as Clickable;
  return cloneElement(child, {
    onClick: (event: MouseEvent<HTMLElement>) => {
      child.props.onClick?.(event);
      if (!event.defaultPrevented) close();
    },
  });
}

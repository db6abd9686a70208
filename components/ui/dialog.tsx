"use client";

import dynamic from "next/dynamic";
import {
  cloneElement,
  createContext,
  isValidElement,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from "react";

/*
 * A dialog with the product's look. The Radix part (focus trap, Escape, labelling) is in
 * ./dialog-content, loaded once the page is idle after a trigger mounts (and at the latest when the pointer or
 * focus reaches it, or the dialog opens), so no page ships Radix in its first load yet the first press finds it.
 * A press before the code has arrived is kept: the trigger shows it is busy and the dialog opens when the code
 * does (issue 32). Before the page's code runs at all the trigger is disabled, so no press goes unheard. Focus
 * goes back on close to whatever had it when the dialog opened: the trigger, or the row button that opened a
 * confirmation.
 */

let contentLoaded = false;
const loadContent = () =>
  import("./dialog-content").then((module) => {
    contentLoaded = true;
    return module;
  });
const DialogContent = dynamic(loadContent, { ssr: false });

/** Loads `load` once the page is idle after the calling component mounts, so a first press finds its code here. */
function usePreloadWhenIdle(load: () => void) {
  useEffect(() => {
    const timer = window.setTimeout(load, 0);
    return () => window.clearTimeout(timer);
  }, [load]);
}

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
  const [loaded, setLoaded] = useState(contentLoaded);
  const preload = useCallback(() => void loadContent().then(() => setLoaded(true)), []);
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
    void loadContent();
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

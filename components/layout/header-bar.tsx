"use client";

import { useTranslations } from "next-intl";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";

import { BareButton } from "@/components/ui/button";

/*
 * The header's bar. From lg up: the name and the navigation on the left, the search, language and account on
 * the right, as always. Below lg it collapses to one line (the name and a "Menu" disclosure button); the
 * button shows the navigation and the tools under it. Opening moves focus to the first link of the menu,
 * Escape closes it and gives focus back to the button, and following a link closes it.
 */
export function HeaderBar({ brand, nav, tools, after }: { brand: ReactNode; nav: ReactNode; tools: ReactNode; after?: ReactNode }) {
  const t = useTranslations("common.nav");
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const pathname = usePathname();
  const [shownFor, setShownFor] = useState(pathname);
  // A new page closes the menu (adjusted while rendering, not in an effect).
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>("a[href], button, input, select")?.focus();
    function onKey(event: KeyboardEvent) {
      if (event.key !== "Escape" || document.querySelector("[role=dialog]")) return;
      setOpen(false);
      button.current?.focus();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  const hidden = open ? "" : "max-lg:hidden";
  return (
    <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3">
      <div className="flex flex-wrap items-center gap-6 max-lg:w-full max-lg:justify-between max-lg:gap-3">
        {brand}
        <BareButton
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls="site-menu-nav site-menu-tools"
          onClick={() => setOpen((value) => !value)}
          className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 lg:hidden"
          data-testid="menu-button"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
            {open ? (
              <path d="M5.3 4.3 10 9l4.7-4.7 1 1L11 10l4.7 4.7-1 1L10 11l-4.7 4.7-1-1L9 10 4.3 5.3z" />
            ) : (
              <path d="M3 5h14v1.5H3zm0 4.25h14v1.5H3zM3 13.5h14V15H3z" />
            )}
          </svg>
          {t("menu")}
        </BareButton>
        <div id="site-menu-nav" ref={menu} className={`${hidden} max-lg:w-full`}>
          {nav}
        </div>
        {after}
      </div>
      <div id="site-menu-tools" className={`${hidden} flex w-full flex-wrap items-center gap-x-4 gap-y-2 sm:w-auto`}>
        {tools}
      </div>
    </div>
  );
}

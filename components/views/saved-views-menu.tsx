"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useId } from "react";

import { useDisclosure } from "@/components/ui/use-disclosure";
import { useDeleteView } from "@/lib/views/hooks";
import { VIEW_PATHS, type ViewScope } from "@/lib/views/rules";
import type { SavedView } from "@/lib/views/types";

/*
 * A page's saved views in the navigation, beside its entry: a disclosure button (the count, and the page in
 * its accessible name) opening a list of links to the saved queries, each with its delete button. Not a
 * modal: Escape or a click outside closes it and focus goes back to the button; following a link closes it.
 */
export function SavedViewsMenu({ scope, views, pageLabel }: { scope: ViewScope; views: SavedView[]; pageLabel: string }) {
  const t = useTranslations("views");
  const remove = useDeleteView();
  const { open, setOpen, button, panel } = useDisclosure({ initialFocus: "a[href]" });
  const panelId = useId();

  if (views.length === 0) return null;
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={t("menu.button", { page: pageLabel, count: views.length })}
        onClick={() => setOpen((value) => !value)}
        className="flex items-center gap-1 rounded-md px-2 py-2 text-xs font-medium text-slate-700 hover:bg-slate-100"
        data-testid={`saved-views-${scope}`}
      >
        <span aria-hidden="true">★ {views.length}</span>
      </button>
      {open ? (
        <div
          ref={panel}
          id={panelId}
          className="absolute left-0 z-40 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-md border border-slate-200 bg-white p-2 shadow-lg"
        >
          <p className="px-2 pb-1 text-xs font-semibold text-slate-600">{t("menu.title", { page: pageLabel })}</p>
          <ul className="space-y-1">
            {views.map((view) => (
              <li key={view.id} className="flex items-center justify-between gap-2">
                <Link
                  href={view.query ? `${VIEW_PATHS[scope]}?${view.query}` : VIEW_PATHS[scope]}
                  onClick={() => setOpen(false)}
                  className="min-w-0 flex-1 truncate rounded px-2 py-1 text-sm text-brand-800 hover:bg-slate-100"
                >
                  {view.name}
                </Link>
                <button
                  type="button"
                  aria-label={t("menu.delete", { name: view.name })}
                  disabled={remove.isPending && remove.variables === view.id}
                  onClick={() => remove.mutate(view.id)}
                  className="shrink-0 rounded px-2 py-1 text-xs text-red-700 hover:bg-red-50 disabled:text-slate-400"
                >
                  {t("menu.deleteShort")}
                </button>
              </li>
            ))}
          </ul>
          <p role="status" className="px-2 text-xs text-red-700">
            {remove.isError ? t("menu.deleteFailed") : null}
          </p>
        </div>
      ) : null}
    </div>
  );
}

"use client";

import { useTranslations } from "next-intl";

import { AppLink as Link } from "@/components/ui/app-link";
import { BareButton } from "@/components/ui/button";
import { useDeleteView } from "@/lib/views/hooks";
import { VIEW_PATHS, type ViewScope } from "@/lib/views/rules";
import type { SavedView } from "@/lib/views/types";

/*
 * A page's saved views in the navigation, as a list under its entry: each view a link to its saved query, with
 * its delete button. In the phone menu (below lg) the list is always shown, indented under the entry. In the
 * desktop bar it drops down under the entry while the pointer is over it or focus is inside it: Tab from the
 * entry goes through the views' links, so the keyboard reaches each without a button to open first.
 */
export function SavedViewsList({ scope, views, pageLabel }: { scope: ViewScope; views: SavedView[]; pageLabel: string }) {
  const t = useTranslations("views");
  const remove = useDeleteView();
  if (views.length === 0) return null;
  return (
    <div
      className="max-lg:w-full max-lg:pl-4 lg:absolute lg:top-full lg:left-0 lg:z-40 lg:hidden lg:w-72 lg:rounded-md lg:border lg:border-slate-200 lg:bg-white lg:p-2 lg:shadow-lg lg:group-focus-within:block lg:group-hover:block"
      data-testid={`saved-views-${scope}`}
      data-saved-views
    >
      <p aria-hidden="true" className="px-2 text-xs font-semibold text-slate-600 max-lg:hidden">
        {t("menu.title", { page: pageLabel })}
      </p>
      <ul aria-label={t("menu.title", { page: pageLabel })} className="max-lg:border-l max-lg:border-slate-200 max-lg:pl-2">
        {views.map((view) => (
          <li key={view.id} className="flex items-center justify-between gap-2">
            <Link
              href={view.query ? `${VIEW_PATHS[scope]}?${view.query}` : VIEW_PATHS[scope]}
              className="min-w-0 flex-1 truncate rounded px-2 py-1 text-sm text-brand-800 hover:bg-slate-100"
            >
              {view.name}
            </Link>
            <BareButton
              type="button"
              aria-label={t("menu.delete", { name: view.name })}
              disabled={remove.isPending && remove.variables === view.id}
              onClick={() => remove.mutate(view.id)}
              className="shrink-0 rounded px-2 py-1 text-xs text-red-700 hover:bg-red-50 disabled:text-slate-400"
            >
              {t("menu.deleteShort")}
            </BareButton>
          </li>
        ))}
      </ul>
      {remove.isError ? (
        <p role="status" className="px-2 text-xs text-red-700">
          {t("menu.deleteFailed")}
        </p>
      ) : null}
    </div>
  );
}

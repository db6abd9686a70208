"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname } from "next/navigation";

import { LinkPending } from "@/components/ui/link-pending";
import { SavedViewsMenu } from "@/components/views/saved-views-menu";
import type { Permission } from "@/lib/auth/permissions";
import { useSavedViews } from "@/lib/views/hooks";
import type { ViewScope } from "@/lib/views/rules";

import { navItemsFor } from "./nav-items";

// The entries whose saved views (lib/views) show beside them.
const VIEW_SCOPE_OF: Record<string, ViewScope> = { "/verifications": "verifications", "/cases": "cases" };

export function MainNav({ permissions }: { permissions: readonly Permission[] }) {
  const t = useTranslations("common.nav");
  const pathname = usePathname();
  const views = useSavedViews().data?.views ?? [];
  return (
    <nav aria-label={t("label")}>
      <ul className="flex flex-wrap gap-1">
        {navItemsFor(permissions).map((item) => {
          const prefix = item.match ?? item.href;
          const current = pathname === prefix || pathname.startsWith(`${prefix}/`);
          const scope = VIEW_SCOPE_OF[item.href];
          return (
            <li key={item.href} className="flex items-center">
              <Link
                href={item.href}
                aria-current={current ? "page" : undefined}
                className={`relative block rounded-md px-3 py-2 text-sm font-medium ${
                  current ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"
                }`}
              >
                {t(item.key)}
                <LinkPending />
              </Link>
              {scope ? <SavedViewsMenu scope={scope} views={views.filter((view) => view.scope === scope)} pageLabel={t(item.key)} /> : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

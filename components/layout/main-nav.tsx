"use client";

import { useTranslations } from "next-intl";

import { AppLink as Link, usePagePath } from "@/components/ui/app-link";
import { LinkPending } from "@/components/ui/link-pending";
import { SavedViewsIsland } from "@/components/views/saved-views-island";
import type { Permission } from "@/lib/auth/permissions";
import type { ViewScope } from "@/lib/views/rules";

import { navItemsFor } from "./nav-items";

// The entries whose saved views (lib/views) are listed under them.
const VIEW_SCOPE_OF: Record<string, ViewScope> = { "/verifications": "verifications", "/cases": "cases" };

/** `attention`: the entries whose pages hold something to see to (the service's deliveries failing, for `/admin`). */
export function MainNav({ permissions, attention = [] }: { permissions: readonly Permission[]; attention?: readonly string[] }) {
  const t = useTranslations("common.nav");
  const pathname = usePagePath();
  return (
    <nav aria-label={t("label")}>
      <ul className="flex flex-wrap gap-1">
        {navItemsFor(permissions).map((item) => {
          const prefix = item.match ?? item.href;
          const current = pathname === prefix || pathname.startsWith(`${prefix}/`);
          const scope = VIEW_SCOPE_OF[item.href];
          return (
            // An entry with saved views under it takes the whole line on a narrow screen.
            <li key={item.href} className="group relative flex flex-wrap items-center max-lg:has-[[data-saved-views]]:w-full">
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
              {/* Beside the link, not in its name: the entry stays "Admin" to every reader, the marker follows it. */}
              {attention.includes(item.href) ? (
                <span
                  role="img"
                  aria-label={t("attention")}
                  title={t("attention")}
                  className="-ml-1 inline-flex h-4 w-4 items-center justify-center rounded-full bg-red-700 text-[10px] font-bold text-white"
                >
                  !
                </span>
              ) : null}
              {scope ? <SavedViewsIsland scope={scope} pageLabel={t(item.key)} /> : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

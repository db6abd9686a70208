import { getTranslations } from "next-intl/server";

import { SavedViewsIsland } from "@/components/views/saved-views-island";
import type { Permission } from "@/lib/auth/permissions";
import type { ViewScope } from "@/lib/views/rules";

import { navItemsFor } from "./nav-items";
import { NavLink } from "./nav-link";

// The entries whose saved views (lib/views) are listed under them.
const VIEW_SCOPE_OF: Record<string, ViewScope> = { "/verifications": "verifications", "/cases": "cases" };

/**
 * The navigation, drawn by the server: the entries the member's permissions allow, each a link that marks itself as the
 * current page (./nav-link.tsx). `attention`: the entries whose pages hold something to see to (the service's
 * deliveries failing, for `/admin`).
 */
export async function MainNav({ permissions, attention = [] }: { permissions: readonly Permission[]; attention?: readonly string[] }) {
  const t = await getTranslations("common.nav");
  return (
    <nav aria-label={t("label")}>
      <ul className="flex flex-wrap gap-1">
        {navItemsFor(permissions).map((item) => {
          const scope = VIEW_SCOPE_OF[item.href];
          return (
            // An entry with saved views under it takes the whole line on a narrow screen.
            <li key={item.href} className="group relative flex flex-wrap items-center max-lg:has-[[data-saved-views]]:w-full">
              <NavLink href={item.href} match={item.match}>
                {t(item.key)}
              </NavLink>
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

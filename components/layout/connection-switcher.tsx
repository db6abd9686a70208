import { getTranslations } from "next-intl/server";

import { ENVIRONMENT_TONE } from "@/components/connections/environment-tone";
import type { Environment } from "@/lib/connections/types";

import { SamePageLink } from "./same-page-link";

/*
 * The connection the page works under, always in the header: its name and environment, production marked plainly
 * (rose), sandbox in the sandbox banner's amber. The switcher lists the connections the member may use; each entry
 * is the same page under that connection (/c/{connection}/…), so a verification of another connection answers there
 * with its not-found explanation rather than someone else's record. Drawn by the server; only each entry's address,
 * which follows the page the browser is on, is worked out in the browser (./same-page-link.tsx).
 */

export interface SwitcherConnection {
  id: string;
  name: string;
  environment: Environment;
}

export async function ConnectionSwitcher({ current, connections }: { current: SwitcherConnection; connections: SwitcherConnection[] }) {
  const t = await getTranslations("common.connection");
  const others = connections.filter((connection) => connection.id !== current.id);
  const label = `${current.name} · ${t(current.environment)}`;
  const badge = (
    <span
      className={`inline-flex min-w-0 items-center gap-1 rounded px-1.5 py-0.5 text-xs font-semibold ring-1 ${ENVIRONMENT_TONE[current.environment]}`}
    >
      {/* On a phone the environment alone, so the header stays one line; the full name is in the label. */}
      <span className="truncate max-sm:hidden">{current.name}</span>
      <span aria-hidden="true" className="max-sm:hidden">
        ·
      </span>
      <span className="shrink-0 uppercase">{t(current.environment)}</span>
    </span>
  );
  if (others.length === 0) {
    return (
      <span data-testid="connection-current" title={t("current", { name: label })}>
        <span className="sr-only">{t("current", { name: label })}</span>
        <span aria-hidden="true">{badge}</span>
      </span>
    );
  }
  // A native disclosure: it opens on the first click or key press, before the page's code has run.
  return (
    <details className="group relative" data-testid="connection-switcher">
      <summary
        className="flex max-w-56 cursor-pointer list-none items-center gap-1 rounded-md p-0.5 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
        data-testid="connection-current"
      >
        <span className="sr-only">{t("switch", { name: label })}</span>
        <span aria-hidden="true" className="flex min-w-0 items-center gap-1">
          {badge}
          <svg viewBox="0 0 20 20" className="h-3 w-3 shrink-0 text-slate-600 group-open:rotate-180" fill="currentColor">
            <path d="M5.3 7.3 10 12l4.7-4.7 1 1L10 14 4.3 8.3z" />
          </svg>
        </span>
      </summary>
      <ul
        aria-label={t("menu")}
        className="absolute left-0 z-30 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-md border border-slate-200 bg-white p-1 shadow-lg"
      >
        {others.map((connection) => (
          <li key={connection.id}>
            <SamePageLink
              connection={connection.id}
              className="flex items-center justify-between gap-2 rounded px-2 py-2 text-sm text-slate-800 hover:bg-slate-100 focus:bg-slate-100"
            >
              <span className="truncate">{connection.name}</span>
              <span
                className={`shrink-0 rounded px-1.5 py-0.5 text-xs font-semibold uppercase ring-1 ${ENVIRONMENT_TONE[connection.environment]}`}
              >
                {t(connection.environment)}
              </span>
            </SamePageLink>
          </li>
        ))}
      </ul>
    </details>
  );
}

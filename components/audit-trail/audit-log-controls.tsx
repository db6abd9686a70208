"use client";

import { useTranslations } from "next-intl";
import { usePathname, useSearchParams } from "next/navigation";
import { lazy, Suspense, useMemo, useState, type ReactNode } from "react";

import { AuditFilters } from "@/components/audit-trail/audit-filters";
import { AfterLoad } from "@/components/ui/after-load";
import { Button } from "@/components/ui/button";
import { requiredContext } from "@/components/ui/required-context";
import { Spinner } from "@/components/ui/spinner";
import { useViewNavigation, ViewPending } from "@/components/ui/view-navigation";
import {
  auditFiltersToSearchParams,
  auditParamsFromSearchParams,
  compactFilters,
  parseAuditFilters,
  type AuditFilters as Filters,
} from "@/lib/audit-trail/filters";
import { changeAddress } from "@/lib/shared/address-change";
import { maskCpf } from "@/lib/shared/cpf";

/*
 * The audit log's islands (the rest is drawn on the server: ./audit-log.tsx). Filters live in the address: applying
 * them asks the server for the new view (a history entry, so Back and Forward walk through views). A searched CPF
 * never goes into an address: it is this page's state (AuditSearchProvider), the address takes the other filters
 * without a request, and the results are fetched in the browser with the CPF in a header (./audit-search-results.tsx).
 */

const AuditSearchResults = lazy(() => import("./audit-search-results"));
const AuditExport = lazy(() => import("./audit-export"));

const [SearchProvider, useSearch] = requiredContext<{ cpf: string | null; setCpf: (cpf: string | null) => void }>("AuditSearchProvider");

/** The CPF searched, for as long as the page is on screen (never in an address, a cache or storage). */
export function AuditSearchProvider({ children }: { children: ReactNode }) {
  const [cpf, setCpf] = useState<string | null>(null);
  return <SearchProvider value={{ cpf, setCpf }}>{children}</SearchProvider>;
}

/** The address's filters: what the log shows, drawn by the server or, during a search, applied without a request. */
function useAddressFilters() {
  const query = useSearchParams().toString();
  const parsed = useMemo(() => parseAuditFilters(auditParamsFromSearchParams(new URLSearchParams(query))), [query]);
  const filters = useMemo<Filters>(() => (parsed.ok ? compactFilters(parsed.value) : {}), [parsed]);
  return { query, ok: parsed.ok, filters };
}

/** The filters' form, and the line that says a CPF is searched. */
export function AuditFiltersIsland({ actions, connections }: { actions: string[]; connections: Array<{ id: string; name: string }> }) {
  const t = useTranslations("audit");
  const { cpf, setCpf } = useSearch();
  const navigation = useViewNavigation();
  const pathname = usePathname();
  const { query, filters } = useAddressFilters();

  // The form is drawn anew when the view changes from outside it (Back, Forward, a link), not for its own apply:
  // it already shows what it applied, and the address catches up a render later, after what is typed meanwhile.
  const [form, setForm] = useState<{ key: number; seen: string; own: string | null }>({ key: 0, seen: query, own: null });
  if (query !== form.seen) setForm({ key: query === form.own ? form.key : form.key + 1, seen: query, own: null });

  const apply = (next: Filters, nextCpf: string | null) => {
    const nextQuery = auditFiltersToSearchParams(next).toString();
    setCpf(nextCpf);
    if (nextQuery !== query) setForm((current) => ({ ...current, own: nextQuery }));
    // A search is fetched in the browser: the address only follows its other filters.
    if (nextCpf !== null) {
      if (nextQuery !== query) changeAddress(nextQuery ? `${pathname}?${nextQuery}` : pathname, "push");
      return;
    }
    // Otherwise the server draws the view: a new one, or this one afresh (after a search, or Apply again).
    if (nextQuery !== query) navigation.show(nextQuery, "push");
    else navigation.refresh();
  };

  return (
    <>
      <AuditFilters key={form.key} filters={filters} cpf={cpf} actions={actions} connections={connections} onApply={apply} />
      {cpf ? <p className="text-sm font-medium text-slate-800">{t("filters.cpfActive", { cpf: maskCpf(cpf) })}</p> : null}
    </>
  );
}

/** "Export CSV" of the view (and the CPF searched). Its code, with react-query's, comes once the page has loaded. */
export function AuditExportIsland() {
  const t = useTranslations("audit.export");
  const { cpf } = useSearch();
  const { ok, filters } = useAddressFilters();
  return (
    <AfterLoad
      standIn={
        <div className="space-y-2">
          <Button variant="secondary" disabled>
            {t("button")}
          </Button>
          <p className="text-xs text-slate-600">{t("hint")}</p>
        </div>
      }
    >
      <AuditExport filters={filters} cpf={cpf} disabled={!ok} />
    </AfterLoad>
  );
}

/** "Updating…" while the server draws a new view. */
export function AuditStatus() {
  const t = useTranslations("audit.list");
  const { pending } = useViewNavigation();
  return (
    <p role="status" aria-live="polite" className="flex items-center gap-2 text-xs text-slate-700">
      {pending ? (
        <>
          <Spinner className="h-3 w-3 text-brand-700" />
          {t("updating")}
        </>
      ) : null}
    </p>
  );
}

/** The results: the server's view (`children`), or a search's, fetched here. */
export function AuditResults({ children }: { children: ReactNode }) {
  const t = useTranslations("audit.list");
  const { cpf } = useSearch();
  const { ok, filters } = useAddressFilters();
  // No search, or an address typed with refused filters (the form applies valid ones only), which the server names.
  if (cpf === null || !ok) return <ViewPending>{children}</ViewPending>;
  return (
    <Suspense
      fallback={
        <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
          <Spinner className="h-3 w-3 text-brand-700" />
          {t("updating")}
        </p>
      }
    >
      <AuditSearchResults key={`${cpf} ${JSON.stringify(filters)}`} filters={filters} cpf={cpf} />
    </Suspense>
  );
}

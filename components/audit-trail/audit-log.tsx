"use client";

import { useTranslations } from "next-intl";
import { usePathname, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";

import { AuditExport } from "@/components/audit-trail/audit-export";
import { AuditFilters } from "@/components/audit-trail/audit-filters";
import { AuditLogResults } from "@/components/audit-trail/audit-log-results";
import { InvalidFiltersAlert } from "@/components/ui/invalid-filters-alert";
import { Spinner } from "@/components/ui/spinner";
import {
  auditFiltersToSearchParams,
  auditParamsFromSearchParams,
  compactFilters,
  parseAuditFilters,
  type AuditFilters as Filters,
} from "@/lib/audit-trail/filters";
import { auditKeys, useAuditEvents } from "@/lib/audit-trail/hooks";
import { changeAddress } from "@/lib/shared/address-change";
import type { ServerError } from "@/lib/shared/api-client/server-error";
import { useServerError } from "@/lib/shared/api-client/server-error-seed";
import { maskCpf } from "@/lib/shared/cpf";

/*
 * The audit log. Filters live in the URL (applying pushes a history entry, so Back and Forward walk
 * through views) except a searched CPF, which stays in this component's state and travels to the API in
 * a header. The first page was prefetched by page.tsx under the same query key; "Load older events"
 * continues from the last event shown (keyset pagination: as fast on page 500 as on page 1).
 */
export function AuditLog({
  actions,
  connections = [],
  serverError,
}: {
  actions: string[];
  connections?: Array<{ id: string; name: string }>;
  serverError: ServerError | null;
}) {
  const t = useTranslations("audit");
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const query = searchParams.toString();
  const parsed = useMemo(() => parseAuditFilters(auditParamsFromSearchParams(new URLSearchParams(query))), [query]);
  const filters = useMemo<Filters>(() => (parsed.ok ? compactFilters(parsed.value) : {}), [parsed]);
  const [cpf, setCpf] = useState<string | null>(null);
  // The first page's failure on the server (page.tsx): its error state, and no fetch until the retry.
  useServerError(auditKeys.list(filters, null), serverError);
  const list = useAuditEvents(filters, cpf, { enabled: parsed.ok });

  // The form is drawn anew when the view changes from outside it (Back, Forward, a link), not for its own apply:
  // it already shows what it applied, and the address catches up a render later, after what is typed meanwhile.
  const [form, setForm] = useState<{ key: number; seen: string; own: string | null }>({ key: 0, seen: query, own: null });
  if (query !== form.seen) setForm({ key: query === form.own ? form.key : form.key + 1, seen: query, own: null });

  const apply = (next: Filters, nextCpf: string | null) => {
    setCpf(nextCpf);
    const nextQuery = auditFiltersToSearchParams(next).toString();
    if (nextQuery === query) return;
    setForm((current) => ({ ...current, own: nextQuery }));
    changeAddress(nextQuery ? `${pathname}?${nextQuery}` : pathname, "push");
  };

  return (
    <>
      <AuditFilters key={form.key} filters={filters} cpf={cpf} actions={actions} connections={connections} onApply={apply} />
      {cpf ? <p className="text-sm font-medium text-slate-800">{t("filters.cpfActive", { cpf: maskCpf(cpf) })}</p> : null}
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <AuditExport filters={filters} cpf={cpf} disabled={!parsed.ok} />
      </div>
      <div className="flex h-6 items-center gap-2">
        <p role="status" aria-live="polite" className="flex items-center gap-2 text-xs text-slate-700">
          {list.isFetching && !list.isFetchingNextPage ? (
            <>
              <Spinner className="h-3 w-3 text-brand-700" />
              {t("list.updating")}
            </>
          ) : null}
        </p>
      </div>
      {parsed.ok ? (
        <AuditLogResults list={list} />
      ) : (
        <InvalidFiltersAlert
          title={t("filters.invalidTitle")}
          body={t("filters.invalidBody")}
          clearHref={pathname}
          clearLabel={t("filters.clear")}
          problems={parsed.problems.map((problem) => ({
            field: problem.field,
            text: problem.code === "not_accepted" ? t("filters.notAccepted") : problem.message,
          }))}
        />
      )}
    </>
  );
}

"use client";

import { useTranslations } from "next-intl";

import { AuditEventTable, AuditEventTableSkeleton } from "@/components/audit-trail/audit-event-table";
import { AuditMore, AuditPagesProvider, useAuditPager } from "@/components/audit-trail/audit-pages";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { AuditFilters } from "@/lib/audit-trail/filters";

/*
 * A search by CPF: the log under the address's filters for one person, fetched in the browser with the CPF in a
 * header (the server never draws it: a CPF never goes into an address). Its code comes with the first search.
 */
export default function AuditSearchResults({ filters, cpf }: { filters: AuditFilters; cpf: string }) {
  return (
    <AuditPagesProvider filters={filters} cpf={cpf} after="first" drawn={0}>
      <SearchBody />
    </AuditPagesProvider>
  );
}

function SearchBody() {
  const t = useTranslations("audit");
  const pager = useAuditPager();
  const caption = t("table.caption");
  if (pager.pages.length === 0) {
    if (!pager.error) return <AuditEventTableSkeleton rows={10} caption={caption} />;
    return (
      <Alert
        tone="error"
        title={t("errors.title")}
        action={
          <Button variant="secondary" onClick={pager.loadMore} pending={pager.loading}>
            {t("errors.retry")}
          </Button>
        }
      >
        {pager.error.message}
      </Alert>
    );
  }
  const events = pager.pages.flatMap((page) => page.events);
  if (events.length === 0) {
    return (
      <Alert tone="info" title={t("list.emptyTitle")}>
        {t("list.emptyBody")}
      </Alert>
    );
  }
  const staff = Object.assign({}, ...pager.pages.map((page) => page.staff));
  return (
    <div className="space-y-3">
      <AuditEventTable events={events} staff={staff} caption={caption} busy={pager.loading} />
      <AuditMore />
    </div>
  );
}

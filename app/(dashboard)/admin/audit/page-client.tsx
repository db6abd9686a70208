"use client";

import { useTimeZone, useTranslations } from "next-intl";

import { AuditLog } from "@/components/audit-trail/audit-log";
import { AppLink as Link } from "@/components/ui/app-link";
import type { ServerError } from "@/lib/shared/api-client/server-error";

export function AuditPageClient({
  actions,
  connections,
  serverError,
  notice,
}: {
  actions: string[];
  /** Every connection, retired ones too (the trail keeps their events), for the filter. */
  connections: Array<{ id: string; name: string }>;
  serverError: ServerError | null;
  /** Rendered by the server under the heading: the repeated CPF-search misses panel. */
  notice?: React.ReactNode;
}) {
  const t = useTranslations("audit");
  const timeZone = useTimeZone() ?? "UTC";
  return (
    <section className="space-y-4">
      <div>
        <Link href="/admin" className="text-sm text-brand-800 underline">
          {t("back")}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("intro")}</p>
        <p className="mt-1 text-xs text-slate-600">{t("timeZone", { zone: timeZone })}</p>
      </div>
      {notice}
      <AuditLog actions={actions} connections={connections} serverError={serverError} />
    </section>
  );
}

import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { Alert } from "@/components/ui/alert";
import { ApiAnchor } from "@/components/ui/api-anchor";
import type { OverviewPeriod } from "@/lib/overview/period";
import { OVERVIEW_TABLE_TITLES, overviewExportHref, type OverviewTable } from "@/lib/overview/tables";

export function PanelError({ title, body }: { title: string; body: string }) {
  return (
    <Alert tone="warning" title={title}>
      <p>{body}</p>
    </Alert>
  );
}

/** A number that opens the list behind it. */
export function NumberLink({ href, children, label }: { href: string; children: ReactNode; label?: string }) {
  return (
    <a
      href={href}
      aria-label={label}
      className="font-medium text-brand-800 tabular-nums underline decoration-brand-600/40 underline-offset-2 hover:decoration-brand-800"
    >
      {children}
    </a>
  );
}

/**
 * A table's CSV download: a plain link (the answer is an attachment), so it works without JavaScript and
 * from the keyboard. Its name starts with the visible text and says which table; paper gets no link. It names the
 * page's connection: the export route reads the connection its address names, else the member's default one.
 */
export async function CsvDownloadLink({ table, period }: { table: OverviewTable; period: Pick<OverviewPeriod, "from" | "to"> }) {
  const t = await getTranslations("overview");
  return (
    <ApiAnchor
      href={overviewExportHref(table, period)}
      download
      aria-label={t("export.downloadLabel", { table: t(OVERVIEW_TABLE_TITLES[table]) })}
      data-export={table}
      className="text-sm font-medium text-brand-800 underline decoration-brand-600/40 underline-offset-2 hover:decoration-brand-800 print:hidden"
    >
      {t("export.download")}
    </ApiAnchor>
  );
}

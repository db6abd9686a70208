import { getFormatter, getTranslations } from "next-intl/server";

import { AppLink as Link } from "@/components/ui/app-link";
import type { CpfSearchMisses } from "@/lib/audit-trail/types";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

const COLUMNS = ["member", "misses", "refused", "last"] as const;

/*
 * The audit page's warning: members whose CPF searches keep finding nothing (or hit their quota) within the recent
 * window, the pattern of someone trying the candidates a masked CPF leaves. Server-rendered from the trail
 * (lib/audit-trail/server/search-misses.ts); each row links to that member's searches on the trail. Nothing shows
 * while no member reaches the threshold.
 */
export async function CpfSearchMissesPanel({ rows, alert, windowHours }: { rows: CpfSearchMisses[]; alert: number; windowHours: number }) {
  if (rows.length === 0) return null;
  const t = await getTranslations("audit.searchMisses");
  const format = await getFormatter();
  return (
    <section aria-labelledby="cpf-search-misses" className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950">
      <h2 id="cpf-search-misses" className="font-semibold">
        {t("title")}
      </h2>
      <p className="mt-1">{t("body", { alert, hours: windowHours })}</p>
      <table className="mt-3 w-full text-left">
        <caption className="sr-only">{t("caption")}</caption>
        <thead>
          <tr>
            {COLUMNS.map((key, index) => (
              <th key={key} scope="col" className={index < COLUMNS.length - 1 ? "py-1 pr-4 font-medium" : "py-1 font-medium"}>
                {t(key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.actorId ?? row.actorEmail ?? "unknown"}>
              <td className="py-1 pr-4">
                {row.actorEmail ? (
                  <Link
                    className="underline"
                    href={`/admin/audit?${new URLSearchParams({ actor: row.actorEmail, action: "search.verification" }).toString()}`}
                  >
                    {row.actorEmail}
                  </Link>
                ) : (
                  (row.actorId ?? t("unknown"))
                )}
              </td>
              <td className="py-1 pr-4 tabular-nums">{row.misses}</td>
              <td className="py-1 pr-4 tabular-nums">{row.refused}</td>
              <td className="py-1">{format.dateTime(new Date(row.lastAt), DATE_TIME_FORMAT)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

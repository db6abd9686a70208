import { useTranslations } from "next-intl";

import { Badge } from "@/components/ui/badge";
import { useDateTime } from "@/components/ui/use-formatters";
import type { RestrictiveListEntry, Verification } from "@/lib/upstream/model/verification";

import { GenericValue } from "./generic-value";

const LIST_COLUMNS = ["listName", "listSource", "listedAt", "listOther"] as const;

function RestrictiveLists({ entries }: { entries: RestrictiveListEntry[] }) {
  const t = useTranslations("verifications.detail");
  const dateTime = useDateTime();
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-800">{t("restrictiveLists")}</h3>
      <p className="mt-1 text-sm text-slate-700">{t("restrictiveListsCount", { count: entries.length })}</p>
      {entries.length > 0 ? (
        <table className="mt-2 w-full table-auto border-collapse text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              {LIST_COLUMNS.map((key) => (
                <th key={key} scope="col" className="px-3 py-2">
                  {t(key)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <tr key={`${entry.name ?? ""}-${index}`} className="border-t border-slate-100 align-top">
                <th scope="row" className="px-3 py-2 text-left font-medium">
                  {entry.name ?? <span className="text-slate-600">{t("notInformed")}</span>}
                </th>
                <td className="px-3 py-2">{entry.source ?? <span className="text-slate-600">{t("notInformed")}</span>}</td>
                <td className="px-3 py-2">
                  {entry.listedAt ? (
                    (dateTime(entry.listedAt, "date") ?? entry.listedAt)
                  ) : (
                    <span className="text-slate-600">{t("notInformed")}</span>
                  )}
                </td>
                <td className="px-3 py-2">
                  {Object.keys(entry.extra).length ? <GenericValue value={entry.extra} /> : <span className="text-slate-600">—</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

/** The screening: where a PEP match came from, and the restrictive lists the person is on. */
export function VerificationScreening({ verification }: { verification: Verification }) {
  const t = useTranslations("verifications.detail");
  return (
    <section aria-labelledby="screening-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="screening-heading" className="text-lg font-semibold">
        {t("screening")}
      </h2>
      <div>
        <h3 className="text-sm font-semibold text-slate-800">{t("pepOrigin")}</h3>
        {verification.pepOrigin ? (
          <p className="mt-1 flex items-center gap-2 text-sm">
            <Badge tone="warning">PEP</Badge>
            {verification.pepOrigin}
          </p>
        ) : (
          <p className="mt-1 text-sm text-slate-700">{t("noPepOrigin")}</p>
        )}
      </div>
      <RestrictiveLists entries={verification.restrictiveLists} />
    </section>
  );
}

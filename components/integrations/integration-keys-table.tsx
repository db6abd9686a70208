"use client";

import { useFormatter, useTranslations } from "next-intl";

import type { IntegrationKeySummary } from "@/lib/integrations/schemas";

/** The registry of keys created through the dashboard: metadata only, never a key value. */
export function IntegrationKeysTable({ keys }: { keys: IntegrationKeySummary[] }) {
  const t = useTranslations("integrations.list");
  const format = useFormatter();
  if (keys.length === 0)
    return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">{t("empty")}</p>;
  return (
    // Focusable and named: on a narrow screen the table scrolls sideways, and a keyboard must reach that too.
    <div
      tabIndex={0}
      role="region"
      aria-label={t("caption")}
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{t("caption")}</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-700 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">
              {t("label")}
            </th>
            <th scope="col" className="px-4 py-3">
              {t("domain")}
            </th>
            <th scope="col" className="px-4 py-3">
              {t("createdAt")}
            </th>
            <th scope="col" className="px-4 py-3">
              {t("createdBy")}
            </th>
            <th scope="col" className="px-4 py-3">
              {t("id")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {keys.map((key) => (
            <tr key={key.id}>
              <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
                {key.label}
              </th>
              <td className="px-4 py-3 font-mono text-slate-800">{key.domain}</td>
              <td className="px-4 py-3 text-slate-800">
                <time dateTime={key.upstreamCreatedAt ?? key.createdAt}>
                  {format.dateTime(new Date(key.upstreamCreatedAt ?? key.createdAt), { dateStyle: "short", timeStyle: "short" })}
                </time>
              </td>
              <td className="px-4 py-3 text-slate-800">{key.createdByEmail ?? "—"}</td>
              <td className="px-4 py-3 text-slate-800">{key.upstreamId}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

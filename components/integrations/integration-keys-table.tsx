"use client";

import { useFormatter, useTranslations } from "next-intl";

import { DataBody, DataCell, DataHead, DataHeader, DataRow, DataTable } from "@/components/ui/data-table";
import type { IntegrationKeySummary } from "@/lib/integrations/validation";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

/** The registry of keys created through the dashboard: metadata only, never a key value. */
export function IntegrationKeysTable({ keys }: { keys: IntegrationKeySummary[] }) {
  const t = useTranslations("integrations.list");
  const format = useFormatter();
  if (keys.length === 0)
    return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">{t("empty")}</p>;
  return (
    // One card per key below md (components/ui/data-table.tsx); a named, focusable region from md up.
    <DataTable caption={t("caption")} label={t("caption")} className="md:shadow-sm">
      <DataHead>
        <DataHeader pad="px-4 py-3">{t("label")}</DataHeader>
        <DataHeader pad="px-4 py-3">{t("domain")}</DataHeader>
        <DataHeader pad="px-4 py-3">{t("createdAt")}</DataHeader>
        <DataHeader pad="px-4 py-3">{t("createdBy")}</DataHeader>
        <DataHeader pad="px-4 py-3">{t("id")}</DataHeader>
      </DataHead>
      <DataBody>
        {keys.map((key) => (
          <DataRow key={key.id}>
            <DataCell rowHeader kind="title" pad="px-4 py-3" className="font-medium text-slate-900">
              {key.label}
            </DataCell>
            <DataCell label={t("domain")} pad="px-4 py-3" className="font-mono text-slate-800">
              <span className="break-all">{key.domain}</span>
            </DataCell>
            <DataCell label={t("createdAt")} pad="px-4 py-3" className="text-slate-800">
              <time dateTime={key.upstreamCreatedAt ?? key.createdAt}>
                {format.dateTime(new Date(key.upstreamCreatedAt ?? key.createdAt), DATE_TIME_FORMAT)}
              </time>
            </DataCell>
            <DataCell label={t("createdBy")} pad="px-4 py-3" className="text-slate-800">
              <span className="break-all">{key.createdByEmail ?? "—"}</span>
            </DataCell>
            <DataCell label={t("id")} pad="px-4 py-3" className="text-slate-800">
              <span className="break-all">{key.upstreamId}</span>
            </DataCell>
          </DataRow>
        ))}
      </DataBody>
    </DataTable>
  );
}

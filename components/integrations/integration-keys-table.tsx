import { useFormatter, useTranslations } from "next-intl";

import { DataBody, DataCell, DataHead, DataHeader, DataRow, DataTable } from "@/components/ui/data-table";
import type { IntegrationKeySummary } from "@/lib/integrations/validation";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

import { IntegrationKeyState } from "./integration-key-state";
import { RetireKeyAction } from "./retire-key-action";

/**
 * The registry of keys created through the dashboard: metadata and state only, never a key value. Drawn on the
 * server; each row's retire button is a client island (./retire-key-action.tsx).
 */
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
        <DataHeader pad="px-4 py-3">{t("state")}</DataHeader>
        <DataHeader pad="px-4 py-3">{t("domain")}</DataHeader>
        <DataHeader pad="px-4 py-3">{t("createdAt")}</DataHeader>
        <DataHeader pad="px-4 py-3">{t("createdBy")}</DataHeader>
        <DataHeader pad="px-4 py-3">{t("id")}</DataHeader>
        <DataHeader pad="px-4 py-3">
          <span className="sr-only">{t("actions")}</span>
        </DataHeader>
      </DataHead>
      <DataBody>
        {keys.map((key) => (
          <DataRow key={key.id}>
            <DataCell rowHeader kind="title" pad="px-4 py-3" className="font-medium text-slate-900">
              {key.label}
            </DataCell>
            <DataCell label={t("state")} pad="px-4 py-3" className="max-w-xs text-slate-800">
              <IntegrationKeyState entry={key} />
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
            <DataCell kind="actions" pad="px-4 py-3">
              <RetireKeyAction entry={key} />
            </DataCell>
          </DataRow>
        ))}
      </DataBody>
    </DataTable>
  );
}

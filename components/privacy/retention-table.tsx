import { useFormatter, useTranslations } from "next-intl";

import { DataBody, DataCell, DataHead, DataHeader, DataRow, DataTable } from "@/components/ui/data-table";
import type { RetentionReportDto } from "@/lib/privacy/retention";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

/*
 * The retention policies (drawn on the server, from the same function as GET /api/privacy/retention): each kind of stored data, how long it is kept and the
 * legal reason, in the table pattern; and the scheduled pruner's last run. Kinds, durations and reasons are in the
 * member's language (the API's `reason` is the English text of the same reason, for the docs and the CLI).
 */

function removedIn(run: NonNullable<RetentionReportDto["lastRun"]>): number {
  return Object.values(run.counts).reduce((sum, count) => sum + (count ?? 0), 0);
}

export function RetentionTable({ data }: { data: RetentionReportDto }) {
  const t = useTranslations("privacy.retention");
  const format = useFormatter();
  const kept = (days: number) => (days > 0 && days < 1 ? t("hour") : t("daysValue", { days }));
  return (
    <div className="space-y-3">
      <DataTable caption={t("caption")} testId="retention-policies">
        <DataHead>
          <DataHeader>{t("kind")}</DataHeader>
          <DataHeader>{t("days")}</DataHeader>
          <DataHeader>{t("reason")}</DataHeader>
        </DataHead>
        <DataBody>
          {data.policies.map((policy) => (
            <DataRow key={policy.kind}>
              <DataCell kind="title" rowHeader className="align-top text-sm font-medium text-slate-900">
                {t(`kinds.${policy.kind}`)}
              </DataCell>
              <DataCell label={t("days")} className="align-top text-sm whitespace-nowrap text-slate-800">
                {kept(policy.days)}
              </DataCell>
              <DataCell label={t("reason")} className="align-top text-sm text-slate-700">
                {t(`reasons.${policy.kind}`)}
              </DataCell>
            </DataRow>
          ))}
        </DataBody>
      </DataTable>
      <p className="text-sm text-slate-700">
        {data.lastRun
          ? t("lastRun", {
              at: format.dateTime(new Date(data.lastRun.at), DATE_TIME_FORMAT),
              removed: removedIn(data.lastRun),
            })
          : t("neverRun")}
      </p>
    </div>
  );
}

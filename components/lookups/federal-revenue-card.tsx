"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { RecordItem, RecordList } from "@/components/ui/record-list";
import { formatPhone } from "@/lib/shared/phone-rules";
import type { FederalRevenueRecord } from "@/lib/upstream/model/partners";

import { LookupCard } from "./lookup-card";
import { useRecordFormat } from "./record-format";

/** The federal revenue record card: a death on record is shown first, as an alert, never only as a field. */
export function FederalRevenueCard({ record }: { record: FederalRevenueRecord }) {
  const t = useTranslations("lookups.results");
  const f = useRecordFormat();
  return (
    <LookupCard title={t("receita.title")} badges={record.deceased ? <Badge tone="danger">{t("deceasedTitle")}</Badge> : null}>
      {record.deceased ? (
        <div className="mt-3">
          <Alert tone="error" title={t("deceasedTitle")}>
            {record.deathYear ? t("deceasedBodyYear", { year: String(record.deathYear) }) : t("deceasedBody")}
          </Alert>
        </div>
      ) : null}
      <div className="mt-4">
        <RecordList>
          <RecordItem label={t("receita.name")} value={record.name} wide />
          <RecordItem label={t("receita.socialName")} value={record.socialName} />
          <RecordItem label={t("receita.birthDate")} value={f.date(record.birthDate)} />
          <RecordItem label={t("receita.situation")} value={record.situation} />
          <RecordItem
            label={t("receita.deceased")}
            value={
              record.deceased === null ? null : record.deceased ? `${t("yes")}${record.deathYear ? ` (${record.deathYear})` : ""}` : t("no")
            }
          />
          <RecordItem label={t("receita.registeredAt")} value={f.date(record.registeredAt)} />
          <RecordItem label={t("receita.issuedAt")} value={f.instant(record.issuedAt)} />
          <RecordItem label={t("receita.mobile")} value={record.mobile ? formatPhone(record.mobile) : null} />
          <RecordItem label={t("receita.email")} value={record.email} />
          <RecordItem label={t("receita.registeredBefore1990")} value={f.yesNo(record.registeredBefore1990)} />
          {record.birthDateInvalidOnRecord ? <RecordItem label={t("receita.birthDateInvalid")} value={t("yes")} /> : null}
          <RecordItem label={t("receita.origin")} value={record.origin} />
        </RecordList>
      </div>
    </LookupCard>
  );
}

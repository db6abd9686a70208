"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { RecordItem, RecordList } from "@/components/ui/record-list";
import type { CpfHistoryRecord } from "@/lib/upstream/model/partners";

import { LookupCard } from "./lookup-card";
import { useRecordFormat } from "./record-format";

/** The fields of a CPF enrichment record (also the client data of a KYC session). */
export function CpfHistoryFields({ record }: { record: CpfHistoryRecord }) {
  const t = useTranslations("lookups.results");
  const f = useRecordFormat();
  return (
    <RecordList>
      <RecordItem label={t("history.name")} value={record.name} wide />
      <RecordItem label={t("history.motherName")} value={record.motherName} wide />
      <RecordItem label={t("history.socialName")} value={record.names.social} />
      <RecordItem label={t("history.gender")} value={record.gender} />
      <RecordItem label={t("history.age")} value={record.age} />
      <RecordItem label={t("history.birthDate")} value={f.date(record.birthDate)} />
      <RecordItem label={t("history.nationality")} value={record.nationality} />
      <RecordItem label={t("history.pep")} value={f.yesNo(record.pep)} />
      <RecordItem label={t("history.deceased")} value={f.yesNo(record.deceased)} />
      <RecordItem label={t("history.situation")} value={record.situation} />
      <RecordItem label={t("history.state")} value={record.state} />
      <RecordItem label={t("history.registeredAt")} value={f.date(record.registeredAt)} />
      <RecordItem label={t("history.issuedAt")} value={f.date(record.issuedAt)} />
      <RecordItem label={t("history.registeredBefore1990")} value={f.yesNo(record.registeredBefore1990)} />
      <RecordItem label={t("history.sign")} value={record.sign} />
      <RecordItem label={t("history.origin")} value={record.origin} />
    </RecordList>
  );
}

/** The CPF enrichment card: a PEP and a death on record are shown first, as alerts. */
export function CpfHistoryCard({ record }: { record: CpfHistoryRecord }) {
  const t = useTranslations("lookups.results");
  return (
    <LookupCard
      title={t("history.title")}
      badges={
        <div className="flex gap-2">
          {record.pep ? <Badge tone="warning">PEP</Badge> : null}
          {record.deceased ? <Badge tone="danger">{t("deceasedTitle")}</Badge> : null}
        </div>
      }
    >
      {record.pep || record.deceased ? (
        <div className="mt-3 space-y-2">
          {record.pep ? (
            <Alert tone="warning" title={t("pepTitle")}>
              {t("pepBody")}
            </Alert>
          ) : null}
          {record.deceased ? (
            <Alert tone="error" title={t("deceasedTitle")}>
              {t("deceasedHistoryBody")}
            </Alert>
          ) : null}
        </div>
      ) : null}
      <div className="mt-4">
        <CpfHistoryFields record={record} />
      </div>
    </LookupCard>
  );
}

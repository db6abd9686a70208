"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { OUTCOME_TONE } from "@/components/audit-trail/outcome-tone";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { DataBody, DataCell, DataHead, DataHeader, DataRow, DataTable } from "@/components/ui/data-table";
import { erasureText, scoresText, type ReportProcessing, type TitularReport } from "@/lib/privacy/titular";
import { DATE_FORMAT, DATE_TIME_SECONDS_FORMAT } from "@/lib/shared/date-format";

/*
 * A titular report on screen: a summary line, the processings in the dashboard's table pattern (a card per row
 * on a phone), then what is stored about the person today. Labels and purposes come in the report's language
 * (the server wrote them); times are shown in the display time zone.
 */

const COLUMNS = ["what", "when", "who", "target", "purpose", "result", "from"] as const;
const cell = "align-top text-sm text-slate-800";

function useWhen() {
  const format = useFormatter();
  return {
    dateTime: (iso: string) => format.dateTime(new Date(iso), DATE_TIME_SECONDS_FORMAT),
    date: (iso: string) => format.dateTime(new Date(iso), DATE_FORMAT),
  };
}

function ProcessingTable({ items, language }: { items: ReportProcessing[]; language: string }) {
  const t = useTranslations("privacy");
  const when = useWhen();
  return (
    <DataTable caption={t("report.processings")} label={t("report.processings")} testId="titular-processings">
      <DataHead>
        {COLUMNS.map((key) => (
          <DataHeader key={key}>{t(`columns.${key}`)}</DataHeader>
        ))}
      </DataHead>
      <DataBody>
        {items.map((item) => (
          <DataRow key={item.id}>
            <DataCell kind="title" rowHeader className={`${cell} font-medium`}>
              <span className="block" lang={language}>
                {item.label}
              </span>
              <code className="block text-xs font-normal text-slate-600">{item.action}</code>
            </DataCell>
            <DataCell label={t("columns.when")} className={cell}>
              <time dateTime={item.at}>{when.dateTime(item.at)}</time>
            </DataCell>
            <DataCell label={t("columns.who")} className={cell}>
              {item.actor ? (
                <>
                  {item.actor.name ? <span className="block font-medium break-words">{item.actor.name}</span> : null}
                  <span className="block text-xs break-words text-slate-600">{item.actor.email}</span>
                </>
              ) : (
                <span className="text-slate-700 italic">{t("system")}</span>
              )}
            </DataCell>
            <DataCell label={t("columns.target")} className={`${cell} break-all`}>
              {item.target?.id ?? "—"}
            </DataCell>
            <DataCell label={t("columns.purpose")} className={cell}>
              <span lang={language}>{item.purpose}</span>
            </DataCell>
            <DataCell label={t("columns.result")} className={cell}>
              <Badge tone={OUTCOME_TONE[item.outcome]}>{t(`outcomes.${item.outcome}`)}</Badge>
            </DataCell>
            <DataCell label={t("columns.from")} className={`${cell} break-all`}>
              {item.ip ?? "—"}
            </DataCell>
          </DataRow>
        ))}
      </DataBody>
    </DataTable>
  );
}

function StoredList({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) {
  const t = useTranslations("privacy.storedLabels");
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <h4 className="text-sm font-semibold text-slate-900">{title}</h4>
      {empty ? (
        <p className="mt-1 text-sm text-slate-600">{t("none")}</p>
      ) : (
        <ul className="mt-2 space-y-2 text-sm text-slate-800">{children}</ul>
      )}
    </div>
  );
}

function Pair({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span className="mr-3 inline-block">
      <span className="text-slate-600">{label}: </span>
      <span className="break-all">{children}</span>
    </span>
  );
}

function StoredToday({ report }: { report: TitularReport }) {
  const t = useTranslations("privacy");
  const s = (key: string) => t(`storedLabels.${key}`);
  const when = useWhen();
  const counted = (count: number, dates: string[]) => t("storedLabels.count", { count, dates: dates.map(when.date).join(", ") });
  const { indexEntries, cases, crops, providerEvents } = report.stored;
  return (
    <section aria-labelledby="titular-stored-heading" className="space-y-3">
      <h3 id="titular-stored-heading" className="text-base font-semibold text-slate-900">
        {t("report.stored")}
      </h3>
      <div className="grid gap-3 lg:grid-cols-2">
        <StoredList title={s("indexEntries")} empty={indexEntries.length === 0}>
          {indexEntries.map((entry) => (
            <li key={entry.publicId}>
              <Pair label={s("publicId")}>{entry.publicId}</Pair>
              <Pair label={s("refId")}>{entry.refId ?? "—"}</Pair>
              <Pair label={s("document")}>{entry.documentMasked ?? "—"}</Pair>
              <Pair label={s("createdHere")}>{s(entry.createdHere ? "yes" : "no")}</Pair>
              <Pair label={s("updatedAt")}>{when.dateTime(entry.updatedAt)}</Pair>
            </li>
          ))}
        </StoredList>
        <StoredList title={s("cases")} empty={cases.length === 0}>
          {cases.map((item) => (
            <li key={item.publicId}>
              <Pair label={s("publicId")}>{item.publicId}</Pair>
              <Pair label={s("status")}>{t(`storedLabels.caseStatus.${item.status}`)}</Pair>
              <Pair label={s("queue")}>{item.queue ?? "—"}</Pair>
              <Pair label={s("openedAt")}>{when.date(item.openedAt)}</Pair>
              <Pair label={s("dueAt")}>{when.date(item.dueAt)}</Pair>
              {item.closedAt ? <Pair label={s("closedAt")}>{when.date(item.closedAt)}</Pair> : null}
              <Pair label={s("notes")}>{counted(item.notes.count, item.notes.dates)}</Pair>
              <Pair label={s("comments")}>{counted(item.comments.count, item.comments.dates)}</Pair>
            </li>
          ))}
        </StoredList>
        <StoredList title={s("crops")} empty={crops.length === 0}>
          {crops.map((crop) => (
            <li key={crop.publicId}>
              <Pair label={s("publicId")}>{crop.publicId}</Pair>
              <Pair label={s("setAt")}>{when.dateTime(crop.setAt)}</Pair>
            </li>
          ))}
        </StoredList>
        <StoredList title={s("providerEvents")} empty={providerEvents.length === 0}>
          {providerEvents.map((event, index) => (
            <li key={`${event.publicId}-${index}`}>
              <Pair label={s("publicId")}>{event.publicId}</Pair>
              <Pair label={s("event")}>{event.event}</Pair>
              <Pair label={s("status")}>{event.status ?? "—"}</Pair>
              <Pair label={s("scores")}>{scoresText(event) || "—"}</Pair>
              <Pair label={s("occurredAt")}>{when.dateTime(event.occurredAt)}</Pair>
            </li>
          ))}
        </StoredList>
      </div>
    </section>
  );
}

/** The person's data was erased on request: said first, each erasure with its request, who and when. */
function Erasures({ report }: { report: TitularReport }) {
  const t = useTranslations("privacy");
  const when = useWhen();
  if (report.erasures.length === 0) return null;
  return (
    <Alert tone="info" title={t("report.erasures")}>
      {report.erasures.map((erasure) => (
        <p key={erasure.id}>{erasureText(erasure, t, when.dateTime)}</p>
      ))}
    </Alert>
  );
}

export function TitularReportView({ report }: { report: TitularReport }) {
  const t = useTranslations("privacy.report");
  const when = useWhen();
  return (
    // A plain block, not a landmark: the processings table is already a region of the same name.
    <div className="space-y-4">
      <h3 className="text-base font-semibold text-slate-900">{t("processings")}</h3>
      <p className="text-sm text-slate-700" data-testid="titular-summary">
        {t("summary", {
          cpf: report.cpfMasked,
          at: when.dateTime(report.generatedAt),
          count: report.processings.length,
          verifications: report.verifications.length,
        })}
      </p>
      <Erasures report={report} />
      {report.truncated ? <Alert tone="warning">{t("truncated")}</Alert> : null}
      {report.processings.length === 0 ? (
        <p className="text-sm text-slate-600">{t("noProcessings")}</p>
      ) : (
        <ProcessingTable items={report.processings} language={report.locale} />
      )}
      <StoredToday report={report} />
    </div>
  );
}

import "server-only";

import { csvRecord } from "@/lib/audit-trail/server/csv";
import { scoresText, type TitularReport } from "@/lib/privacy/titular";
import { isoInZone } from "@/lib/shared/time-zone";

import { reportMessages } from "./titular-report";

/*
 * The titular report as CSV, with the audit export's conventions (lib/audit-trail/server/csv.ts): UTF-8 with a
 * BOM, CRLF between records, every cell guarded against formula injection and quoted when it must be. One table:
 * each processing is a `processing` record; what is stored today follows as `stored.*` records, so a spreadsheet
 * filters either. Column names are codes (like the audit export); labels and purposes are in the report's
 * language; times carry the display time zone's offset.
 */

export const TITULAR_CSV_COLUMNS = [
  "record",
  "at",
  "action",
  "label",
  "actor_name",
  "actor_email",
  "ip",
  "purpose",
  "outcome",
  "target_type",
  "target",
  "details",
] as const;

type Cell = string | number | null;

export function titularReportCsv(report: TitularReport): string {
  const { t } = reportMessages(report.locale);
  const at = (iso: string | null) => (iso ? isoInZone(new Date(iso), report.timeZone) : null);
  const dates = (list: string[]) => list.map((iso) => at(iso)).join(" ");
  const stored = (record: string, when: string | null, label: string, publicId: string, details: string): Cell[] => [
    `stored.${record}`,
    at(when),
    null,
    label,
    null,
    null,
    null,
    null,
    null,
    "verification",
    publicId,
    details,
  ];
  const rows: Cell[][] = [
    ...report.processings.map((item): Cell[] => [
      "processing",
      at(item.at),
      item.action,
      item.label,
      item.actor?.name ?? (item.actor ? null : t("system")),
      item.actor?.email ?? null,
      item.ip,
      item.purpose,
      item.outcome,
      item.target?.type ?? null,
      item.target?.id ?? null,
      null,
    ]),
    ...report.stored.indexEntries.map((entry) =>
      stored(
        "index_entry",
        entry.updatedAt,
        t("storedLabels.indexEntries"),
        entry.publicId,
        `ref_id=${entry.refId ?? ""}; document=${entry.documentMasked ?? ""}; created_here=${entry.createdHere}`,
      ),
    ),
    ...report.stored.cases.map((item) =>
      stored(
        "case",
        item.openedAt,
        t("storedLabels.cases"),
        item.publicId,
        [
          `status=${item.status}`,
          `queue=${item.queue ?? ""}`,
          `due=${at(item.dueAt)}`,
          `closed=${at(item.closedAt) ?? ""}`,
          `recommendation=${item.recommendation ?? ""}`,
          `notes=${item.notes.count} [${dates(item.notes.dates)}]`,
          `comments=${item.comments.count} [${dates(item.comments.dates)}]`,
        ].join("; "),
      ),
    ),
    ...report.stored.crops.map((crop) => stored("crop", crop.setAt, t("storedLabels.crops"), crop.publicId, "")),
    ...report.stored.providerEvents.map((event) =>
      stored(
        "provider_event",
        event.occurredAt,
        t("storedLabels.providerEvents"),
        event.publicId,
        `event=${event.event}; status=${event.status ?? ""}; scores=${scoresText(event)}`,
      ),
    ),
    // The person's data was erased on request: who confirmed it and when, the request's id and who asked.
    ...report.erasures.map((erasure): Cell[] => [
      "erasure",
      at(erasure.confirmedAt),
      "privacy.erasure.confirm",
      t("report.erasures"),
      erasure.confirmedBy?.name ?? null,
      erasure.confirmedBy?.email ?? null,
      null,
      null,
      "success",
      "privacy_erasure",
      erasure.id,
      `requested_at=${at(erasure.requestedAt)}; requested_by=${erasure.requestedBy.email ?? ""}`,
    ]),
  ];
  return `\uFEFF${csvRecord([...TITULAR_CSV_COLUMNS])}${rows.map(csvRecord).join("")}`;
}

import "server-only";

import { config } from "@/lib/config";
import type { Locale } from "@/lib/i18n/locales";
import { erasureText, scoresText, type ReportProcessing, type TitularReport } from "@/lib/privacy/titular";
import { DATE_FORMAT, DATE_TIME_SECONDS_FORMAT } from "@/lib/shared/date-format";
import { PDF_GREY as GREY, PDF_MARGIN as MARGIN, numberPagesAndEnd, startPdf, winAnsi } from "@/lib/shared/server/pdf";
import enCommon from "@/messages/en/common.json";
import ptBRCommon from "@/messages/pt-BR/common.json";

import { reportMessages, type Translate } from "./titular-report";

/*
 * The titular report as a PDF the person can read (pdfkit): title, the controller (the dashboard and its
 * address), the date, the masked CPF, what the report is in plain words, a table of processings, what is stored
 * today, and the person's rights; in the report's language. Only pdfkit's built-in standard fonts (Helvetica),
 * which need no font file or network and write WinAnsi text: pt-BR accents are in it; a character outside it
 * (a name in another script) is written as "?" rather than as a wrong glyph.
 */

const APP_NAME: Record<Locale, string> = { en: enCommon.appName, "pt-BR": ptBRCommon.appName };

function controllerName(locale: Locale): string {
  const publicUrl = config().publicUrl;
  return publicUrl ? `${APP_NAME[locale]} (${new URL(publicUrl).host})` : APP_NAME[locale];
}

function formatter(report: TitularReport) {
  const dateTime = new Intl.DateTimeFormat(report.locale, { ...DATE_TIME_SECONDS_FORMAT, timeZone: report.timeZone });
  const date = new Intl.DateTimeFormat(report.locale, { ...DATE_FORMAT, timeZone: report.timeZone });
  return { dateTime: (iso: string) => dateTime.format(new Date(iso)), date: (iso: string) => date.format(new Date(iso)) };
}

function who(item: ReportProcessing, t: Translate): string {
  if (!item.actor) return t("system");
  return [item.actor.name, item.actor.email].filter(Boolean).join("\n");
}

function heading(doc: PDFKit.PDFDocument, text: string): void {
  doc.moveDown(1).font("Helvetica-Bold").fontSize(12).fillColor("black").text(winAnsi(text), MARGIN).moveDown(0.3);
}

function paragraph(doc: PDFKit.PDFDocument, text: string, { color = "black", size = 10 } = {}): void {
  doc.font("Helvetica").fontSize(size).fillColor(color).text(winAnsi(text), MARGIN, undefined, { align: "left" });
}

const CELL_PADDING = 3;
const HEADER_FONT = { family: "Helvetica-Bold", size: 8 } as const;
/** The width a page's tables share (A4 less the margins). */
const TABLE_WIDTH = 499;

/**
 * Each table's header and its columns' share of the width, in the report's language. The shares are what a column
 * wants; fitColumns gives a header's longest word its room first.
 */
export function reportTables(t: Translate) {
  const c = (key: string) => t(`columns.${key}`);
  const s = (key: string) => t(`storedLabels.${key}`);
  return {
    processings: {
      header: [c("when"), c("who"), c("what"), c("target"), c("purpose"), c("result"), c("from")],
      shares: [62, 92, 82, 80, 88, 40, 55],
    },
    indexEntries: { header: [s("publicId"), s("refId"), s("document"), s("createdHere"), s("updatedAt")], shares: [150, 90, 90, 70, 99] },
    cases: {
      header: [s("publicId"), s("status"), s("queue"), s("openedAt"), s("closedAt"), s("notes"), s("comments")],
      shares: [110, 45, 60, 55, 55, 87, 87],
    },
    crops: { header: [s("publicId"), s("setAt")], shares: [250, 249] },
    providerEvents: {
      header: [s("publicId"), s("event"), s("status"), s("scores"), s("occurredAt")],
      shares: [140, 120, 70, 60, 109],
    },
  };
}

/** The width of the longest word of a header, as the header's font draws it. */
export function longestWord(doc: PDFKit.PDFDocument, header: string): number {
  doc.font(HEADER_FONT.family).fontSize(HEADER_FONT.size);
  return Math.max(
    0,
    ...winAnsi(header)
      .split(/\s+/)
      .map((word) => doc.widthOfString(word)),
  );
}

/**
 * Column widths for a header within `total`: every column at least its header's longest word plus the padding (so
 * pdfkit wraps a header at its spaces, never inside a word), the rest of the width shared as `shares` ask, taken
 * from the columns with room to spare when the words need it.
 */
export function fitColumns(doc: PDFKit.PDFDocument, header: string[], shares: number[], total = TABLE_WIDTH): number[] {
  const least = header.map((text) => Math.ceil(longestWord(doc, text) + 2 * CELL_PADDING + 1));
  const scale = total / shares.reduce((sum, share) => sum + share, 0);
  const widths = shares.map((share, index) => Math.max(share * scale, least[index]!));
  let excess = widths.reduce((sum, width) => sum + width, 0) - total;
  while (excess > 0.01) {
    const spare = widths.map((width, index) => width - least[index]!);
    const room = spare.reduce((sum, value) => sum + value, 0);
    if (room <= 0.01) break;
    const take = Math.min(excess, room);
    for (let index = 0; index < widths.length; index += 1) widths[index]! -= (spare[index]! / room) * take;
    excess -= take;
  }
  return widths.map((width) => Math.floor(width * 100) / 100);
}

/** A table with a header row; pdfkit breaks it across pages. */
function table(doc: PDFKit.PDFDocument, { header, shares }: { header: string[]; shares: number[] }, rows: string[][]): void {
  const widths = fitColumns(doc, header, shares);
  doc.x = MARGIN;
  doc.font("Helvetica").fontSize(8).fillColor("black");
  doc.table({
    columnStyles: widths,
    defaultStyle: { border: 0.5, borderColor: "#cbd5e1", padding: CELL_PADDING },
    data: [
      header.map((text) => ({
        text: winAnsi(text),
        type: "TH" as const,
        font: HEADER_FONT,
        backgroundColor: "#f1f5f9",
      })),
      ...rows.map((row) => row.map((text) => winAnsi(text))),
    ],
  });
  doc.moveDown(0.5);
}

function storedSection(doc: PDFKit.PDFDocument, report: TitularReport, t: Translate, format: ReturnType<typeof formatter>): void {
  const { indexEntries, cases, crops, providerEvents } = report.stored;
  const yesNo = (value: boolean) => t(value ? "storedLabels.yes" : "storedLabels.no");
  const counted = (count: number, dates: string[]) => t("storedLabels.count", { count, dates: dates.map(format.date).join(", ") });
  const tables = reportTables(t);
  const section = (title: string, columns: { header: string[]; shares: number[] }, rows: string[][]) => {
    doc.font("Helvetica-Bold").fontSize(10).fillColor("black").text(winAnsi(title), MARGIN).moveDown(0.2);
    if (rows.length === 0) paragraph(doc, t("storedLabels.none"), { color: GREY, size: 9 });
    else table(doc, columns, rows);
    doc.moveDown(0.4);
  };
  const s = (key: string) => t(`storedLabels.${key}`);
  section(
    s("indexEntries"),
    tables.indexEntries,
    indexEntries.map((entry) => [
      entry.publicId,
      entry.refId ?? "",
      entry.documentMasked ?? "",
      yesNo(entry.createdHere),
      format.dateTime(entry.updatedAt),
    ]),
  );
  section(
    s("cases"),
    tables.cases,
    cases.map((item) => [
      item.publicId,
      t(`storedLabels.caseStatus.${item.status}`),
      item.queue ?? "",
      format.date(item.openedAt),
      item.closedAt ? format.date(item.closedAt) : "",
      counted(item.notes.count, item.notes.dates),
      counted(item.comments.count, item.comments.dates),
    ]),
  );
  section(
    s("crops"),
    tables.crops,
    crops.map((crop) => [crop.publicId, format.dateTime(crop.setAt)]),
  );
  section(
    s("providerEvents"),
    tables.providerEvents,
    providerEvents.map((event) => [event.publicId, event.event, event.status ?? "", scoresText(event), format.dateTime(event.occurredAt)]),
  );
}

/** The person's data was erased on request: each confirmed erasure, in words. */
function erasureSection(doc: PDFKit.PDFDocument, report: TitularReport, t: Translate, format: ReturnType<typeof formatter>): void {
  if (report.erasures.length === 0) return;
  doc
    .font("Helvetica-Bold")
    .fontSize(10)
    .fillColor("black")
    .text(winAnsi(t("report.erasures")), MARGIN)
    .moveDown(0.2);
  for (const erasure of report.erasures) paragraph(doc, erasureText(erasure, t, format.dateTime), { size: 9 });
}

/** The PDF's bytes. */
export async function titularReportPdf(report: TitularReport): Promise<Buffer> {
  const { t } = reportMessages(report.locale);
  const format = formatter(report);
  const { doc, done } = startPdf({
    lang: report.locale,
    title: t("pdf.title"),
    author: controllerName(report.locale),
    subject: t("pdf.subtitle"),
  });

  doc
    .font("Helvetica-Bold")
    .fontSize(18)
    .text(winAnsi(t("pdf.title")), MARGIN);
  paragraph(doc, t("pdf.subtitle"), { color: GREY });
  doc.moveDown(0.6);
  paragraph(doc, t("pdf.controller", { name: controllerName(report.locale) }));
  paragraph(doc, t("pdf.generated", { at: format.dateTime(report.generatedAt), timeZone: report.timeZone }));
  paragraph(doc, t("pdf.person", { cpf: report.cpfMasked }));

  heading(doc, t("pdf.explanationTitle"));
  paragraph(doc, t("pdf.explanation"));

  heading(doc, t("pdf.processingsTitle"));
  if (report.processings.length === 0) paragraph(doc, t("report.noProcessings"), { color: GREY });
  else {
    table(
      doc,
      reportTables(t).processings,
      report.processings.map((item) => [
        format.dateTime(item.at),
        who(item, t),
        item.label,
        item.target?.id ?? "",
        item.purpose,
        t(`outcomes.${item.outcome}`),
        item.ip ?? "",
      ]),
    );
    if (report.truncated) paragraph(doc, t("pdf.truncated", { count: report.processings.length }), { color: GREY, size: 9 });
  }

  heading(doc, t("pdf.storedTitle"));
  storedSection(doc, report, t, format);
  erasureSection(doc, report, t, format);

  heading(doc, t("pdf.rightsTitle"));
  paragraph(doc, t("pdf.rights"));

  numberPagesAndEnd(doc, (page, pages) => t("pdf.page", { page, pages }));
  return done;
}

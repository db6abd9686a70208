import "server-only";

import { createTranslator } from "next-intl";

import type { Locale } from "@/lib/i18n/locales";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";
import { PDF_GREY as GREY, PDF_MARGIN as MARGIN, numberPagesAndEnd, startPdf, winAnsi } from "@/lib/shared/server/pdf";
import enCases from "@/messages/en/cases.json";
import en from "@/messages/en/coaf.json";
import ptBRCases from "@/messages/pt-BR/cases.json";
import ptBR from "@/messages/pt-BR/coaf.json";

import type { SuspiciousActivityDossier } from "./suspicious-activity-dossier";

/*
 * The dossier of a suspicious-activity report as a PDF (lib/shared/server/pdf.ts: WinAnsi text, pt-BR accents
 * included, any other character written as "?"), in the member's language: the report, the verification, the
 * decisions with their reasons, the case's history and the same person's other verifications. No image.
 */

type Translate = (key: string, values?: Record<string, string | number>) => string;

const CATALOGUES: Record<Locale, { coaf: typeof en; cases: typeof enCases }> = {
  en: { coaf: en, cases: enCases },
  "pt-BR": { coaf: ptBR, cases: ptBRCases },
};

function heading(doc: PDFKit.PDFDocument, text: string): void {
  doc.moveDown(0.8).font("Helvetica-Bold").fontSize(12).fillColor("black").text(winAnsi(text), MARGIN).moveDown(0.2);
}

function line(doc: PDFKit.PDFDocument, text: string, { color = "black", size = 10, bold = false } = {}): void {
  doc
    .font(bold ? "Helvetica-Bold" : "Helvetica")
    .fontSize(size)
    .fillColor(color)
    .text(winAnsi(text), MARGIN, undefined, { align: "left" });
}

function reportPart(
  doc: PDFKit.PDFDocument,
  dossier: SuspiciousActivityDossier,
  t: Translate,
  at: (iso: string) => string,
  money: Intl.NumberFormat,
) {
  const { report } = dossier;
  heading(doc, t("reportTitle"));
  line(doc, t("reportId", { id: report.id }));
  line(doc, t("case", { id: report.casePublicId }));
  line(doc, t("document", { document: report.documentMasked ?? "—" }));
  line(doc, t("status", { status: t(report.status === "filed" ? "statusFiled" : "statusDraft") }));
  line(doc, t("opened", { at: at(report.openedAt) }));
  line(doc, t("deadline", { at: at(report.deadline) }) + (report.overdue ? ` – ${t("overdue")}` : ""), { bold: report.overdue });
  line(
    doc,
    report.protocol ? t("protocol", { protocol: report.protocol, at: report.filedAt ? at(report.filedAt) : "—" }) : t("noProtocol"),
  );
  heading(doc, t("summaryTitle"));
  line(doc, report.summary);
  heading(doc, t("groundsTitle"));
  for (const ground of report.grounds) line(doc, `• ${t(`grounds.${ground}`)}`);
  heading(doc, t("operationsTitle"));
  if (report.operations.length === 0) line(doc, t("noOperations"), { color: GREY });
  for (const operation of report.operations) {
    line(doc, t("operation", { date: operation.date, amount: money.format(operation.amount), description: operation.description }));
  }
}

function verificationPart(doc: PDFKit.PDFDocument, dossier: SuspiciousActivityDossier, t: Translate, at: (iso: string) => string) {
  heading(doc, t("verificationTitle"));
  const { verification } = dossier;
  if (!verification) {
    line(doc, t("verificationUnavailable", { reason: dossier.verificationError ?? "—" }), { color: GREY });
    return;
  }
  const yesNo = (value: boolean | null) => t(value === null ? "unknown" : value ? "yes" : "no");
  line(doc, t("case", { id: verification.publicId }));
  line(doc, t("document", { document: verification.document }));
  line(doc, t("verificationStatus", { status: verification.status }));
  line(doc, t("flow", { flow: verification.flow ?? "—", journey: verification.journey ?? "—" }));
  if (verification.createdAt) line(doc, t("createdAt", { at: at(verification.createdAt) }));
  if (verification.decidedAt) line(doc, t("decidedAt", { at: at(verification.decidedAt) }));
  line(doc, t("scores", { identity: verification.identityScore ?? "—", risk: verification.riskScore ?? "—" }));
  line(doc, t("pep", { pep: yesNo(verification.pep) }));
  if (verification.pepOrigin) line(doc, t("pepOrigin", { origin: verification.pepOrigin }));
  line(doc, t("lists"), { bold: true });
  if (verification.restrictiveLists.length === 0) line(doc, t("noLists"), { color: GREY });
  for (const entry of verification.restrictiveLists) {
    line(doc, `• ${t("list", { name: entry.name ?? "—", source: entry.source ?? "—", listedAt: entry.listedAt ?? "" })}`);
  }
  line(doc, t("steps"), { bold: true });
  for (const step of verification.steps) {
    const figures = [step.score === null ? null : `score ${step.score}`, step.similarity === null ? null : `${step.similarity}%`];
    const notices = step.notices.length > 0 ? ` (${step.notices.join("; ")})` : "";
    line(doc, `• ${t("step", { name: step.name, state: step.state ?? "—" })} ${figures.filter(Boolean).join(", ")}${notices}`);
  }
}

function casePart(
  doc: PDFKit.PDFDocument,
  dossier: SuspiciousActivityDossier,
  t: Translate,
  at: (iso: string) => string,
  reason: (code: string) => string,
) {
  heading(doc, t("decisionsTitle"));
  if (dossier.decisions.length === 0) line(doc, t("noDecisions"), { color: GREY });
  for (const decision of dossier.decisions) {
    const verdict =
      decision.agree === null
        ? (decision.recommendation ?? "—")
        : `${decision.recommendation ?? "—"} (${t(decision.agree ? "yes" : "no")})`;
    line(
      doc,
      t("decision", { kind: t(decision.kind), by: decision.by ?? "—", at: decision.at ? at(decision.at) : "—", recommendation: verdict }),
      {
        bold: true,
      },
    );
    if (decision.reasons.length > 0) line(doc, t("reasons", { reasons: decision.reasons.map(reason).join("; ") }));
    if (decision.comment) line(doc, t("comment", { comment: decision.comment }));
  }
  heading(doc, t("timelineTitle"));
  if (dossier.timeline.length === 0) line(doc, t("noTimeline"), { color: GREY });
  for (const entry of dossier.timeline) {
    line(doc, `${at(entry.at)} · ${entry.kind}${entry.actor ? ` · ${entry.actor}` : ""}${entry.text ? `: ${entry.text}` : ""}`, {
      size: 9,
    });
  }
  heading(doc, t("samePersonTitle"));
  if (dossier.samePerson.length === 0) line(doc, t("noSamePerson"), { color: GREY });
  for (const row of dossier.samePerson) {
    line(doc, t("samePerson", { publicId: row.publicId, caseStatus: row.caseStatus ?? "—", status: row.upstreamStatus ?? "—" }), {
      size: 9,
    });
  }
}

/** The PDF's bytes, in `locale`. */
export async function suspiciousActivityPdf(dossier: SuspiciousActivityDossier, locale: Locale): Promise<Buffer> {
  const messages = CATALOGUES[locale];
  const translator = createTranslator({ locale, messages: { coaf: messages.coaf }, namespace: "coaf" });
  const t: Translate = (key, values) =>
    key.startsWith("grounds.") ? translator(key as never) : translator(`dossier.${key}` as never, values as never);
  const reasons: Record<string, string> = messages.cases.reasons;
  const reason = (code: string) => (reasons[code] ? `${reasons[code]} (${code})` : code);
  const dateTime = new Intl.DateTimeFormat(locale, { ...DATE_TIME_FORMAT, timeZone: "UTC" });
  const at = (iso: string) => dateTime.format(new Date(iso));
  const money = new Intl.NumberFormat(locale, { style: "currency", currency: "BRL" });

  const { doc, done } = startPdf({ lang: locale, title: t("title"), subject: t("subtitle") });
  doc
    .font("Helvetica-Bold")
    .fontSize(16)
    .text(winAnsi(t("title")), MARGIN);
  line(doc, t("subtitle"), { color: GREY });
  line(doc, t("generated", { at: at(dossier.generatedAt) }), { color: GREY, size: 9 });
  reportPart(doc, dossier, t, at, money);
  verificationPart(doc, dossier, t, at);
  casePart(doc, dossier, t, at, reason);

  numberPagesAndEnd(doc, (page, pages) => t("page", { page, pages }));
  return done;
}

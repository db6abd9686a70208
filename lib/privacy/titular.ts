import type { Locale } from "@/lib/i18n/locales";

/*
 * The titular report (LGPD art. 18 II and art. 19): what the dashboard did with one person's data and what it
 * stores about them today. The shape of POST /api/privacy/reports' JSON answer, shared with the page. Shared:
 * no server imports. Built by lib/privacy/server/titular-report.ts, drawn as CSV and PDF beside it.
 */

export const REPORT_FORMATS = ["json", "csv", "pdf"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Who acted: a member by name and email, or nobody (the system, the provider's webhook). */
export interface ReportActor {
  name: string | null;
  email: string | null;
}

/** One processing of the person's data: an audit trail event about them. */
export interface ReportProcessing {
  /** The audit event's id. */
  id: number;
  /** ISO 8601, UTC. */
  at: string;
  /** The audit action, `area.verb`. */
  action: string;
  /** The action in words, in the report's language. */
  label: string;
  actor: ReportActor | null;
  /** The client address the request came from. */
  ip: string | null;
  /** The purpose the member typed (lookups), else the purpose of that kind of processing, in words. */
  purpose: string;
  outcome: "success" | "failure" | "denied" | "intent";
  /** What it was about, as the trail keeps it: a verification's public id, a masked CPF or phone. */
  target: { type: string; id: string } | null;
}

export interface ReportIndexEntry {
  publicId: string;
  refId: string | null;
  documentMasked: string | null;
  createdHere: boolean;
  updatedAt: string;
}

export interface ReportCase {
  publicId: string;
  status: "open" | "closed";
  queue: string | null;
  openedAt: string;
  dueAt: string;
  closedAt: string | null;
  recommendation: string | null;
  /** Notes about the person (free text, sealed at rest): how many, and when each was written. */
  notes: { count: number; dates: string[] };
  /** Comments of an outcome or a confirmation. */
  comments: { count: number; dates: string[] };
}

export interface ReportCrop {
  publicId: string;
  setAt: string;
}

export interface ReportProviderEvent {
  publicId: string;
  event: string;
  status: string | null;
  /** The scores the event carried (the documentation's payload), null when it carried none. */
  identityScore: number | null;
  fraudScore: number | null;
  occurredAt: string;
}

/** An event's scores as one cell: "71 / 54", "71 / —", or "" when it carried none. */
export function scoresText(event: Pick<ReportProviderEvent, "identityScore" | "fraudScore">): string {
  if (event.identityScore === null && event.fraudScore === null) return "";
  return `${event.identityScore ?? "—"} / ${event.fraudScore ?? "—"}`;
}

export interface ReportStored {
  indexEntries: ReportIndexEntry[];
  cases: ReportCase[];
  crops: ReportCrop[];
  /** The provider's events about the person's verifications, as the webhook store keeps them. */
  providerEvents: ReportProviderEvent[];
}

/** A confirmed erasure of the person's data (LGPD art. 18 VI): the request, who asked and who confirmed, and when. */
export interface ReportErasure {
  /** The erasure request's id. */
  id: string;
  requestedAt: string;
  requestedBy: ReportActor;
  confirmedAt: string;
  confirmedBy: ReportActor | null;
}

export interface TitularReport {
  /** ISO 8601, UTC. */
  generatedAt: string;
  locale: Locale;
  /** The display time zone the CSV and PDF write times in. */
  timeZone: string;
  /** `***.982.247-**`: the report never holds the CPF itself. */
  cpfMasked: string;
  /** The person's verifications the dashboard knows (by the search index). */
  verifications: string[];
  /** Oldest first. */
  processings: ReportProcessing[];
  /** True when there were more processings than a report holds (the oldest are listed). */
  truncated: boolean;
  stored: ReportStored;
  /** The person's data was erased on request: each confirmed erasure, oldest first. */
  erasures: ReportErasure[];
}

/**
 * One erasure in words (the `privacy` messages' `report.erasure`), for the page and the PDF alike: `t` translates in
 * the privacy namespace, `dateTime` writes a time in the display time zone.
 */
export function erasureText(
  erasure: ReportErasure,
  t: (key: "report.erasure", values: Record<string, string>) => string,
  dateTime: (iso: string) => string,
): string {
  const who = (actor: ReportActor | null) => actor?.name ?? actor?.email ?? "—";
  return t("report.erasure", {
    id: erasure.id,
    requestedAt: dateTime(erasure.requestedAt),
    requestedBy: who(erasure.requestedBy),
    confirmedAt: dateTime(erasure.confirmedAt),
    confirmedBy: who(erasure.confirmedBy),
  });
}

/** The file name of a downloaded report, without personal data. */
export function reportFileName(format: Exclude<ReportFormat, "json">, generatedAt: string): string {
  const stamp = generatedAt.replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
  return `titular-report-${stamp}.${format}`;
}

import type { Locale } from "@/lib/i18n/locales";
import { apiFile, apiRequest } from "@/lib/shared/api-client/api-request";
import { saveBlob } from "@/lib/shared/api-client/csv-download";

import type { ErasureResponse } from "./erasure";
import type { PrivacyRequestResponse, RequestAnswer, RequestChannel, RequestKind } from "./requests";
import { reportFileName, type ReportFormat, type TitularReport } from "./titular";

/*
 * What /admin/privacy sends from the browser. The page draws its lists on the server (the titular requests, the
 * erasures, the retention policies); the forms and buttons that send these have the page drawn again after every
 * outcome, refused ones too (components/ui/use-refreshing-request.ts): a 409 means someone else acted first.
 *
 * Erasure requests: asking and confirming need a fresh second factor: a refusal opens the step-up dialog and the same
 * request is sent again (lib/shared/api-client/api-request.ts).
 */

export function postErasure(input: { cpf: string; reason: string }): Promise<ErasureResponse> {
  return apiRequest("/api/privacy/erasures", { method: "POST", body: input });
}

export function postErasureDecision({ id, decision }: { id: string; decision: "confirm" | "cancel" }): Promise<ErasureResponse> {
  return apiRequest(`/api/privacy/erasures/${encodeURIComponent(id)}/${decision}`, { method: "POST" });
}

/*
 * A titular report is a POST (the CPF travels in the body, never in a URL): the report stays in the component that
 * shows it and is never cached; a CSV or PDF goes straight to the browser's save.
 */

export interface TitularReportRequest {
  cpf: string;
  locale: Locale;
}

export function postTitularReport(input: TitularReportRequest): Promise<TitularReport> {
  return apiRequest("/api/privacy/reports", { method: "POST", body: { ...input, format: "json" } });
}

const ACCEPT: Record<Exclude<ReportFormat, "json">, string> = { csv: "text/csv", pdf: "application/pdf" };

/** Downloads the report as a file and hands it to the browser's save; resolves with the file's name. */
export async function downloadTitularReport(input: TitularReportRequest & { format: "csv" | "pdf" }): Promise<string> {
  const { blob, filename } = await apiFile("/api/privacy/reports", {
    method: "POST",
    body: input,
    accept: ACCEPT[input.format],
    fallbackName: reportFileName(input.format, new Date().toISOString()),
  });
  saveBlob(blob, filename);
  return filename;
}

/*
 * Titular requests: registering one sends the CPF in the body, never in a URL; closing one may be refused with a 409
 * (someone else closed it first, or the report or erasure it names was not made yet).
 */

export interface PrivacyRequestInput {
  cpf: string;
  kind: RequestKind;
  channel: RequestChannel;
  receivedAt: string;
  contact?: string;
}

export function postPrivacyRequest(input: PrivacyRequestInput): Promise<PrivacyRequestResponse> {
  return apiRequest("/api/privacy/requests", { method: "POST", body: input });
}

export function postPrivacyRequestClose({
  id,
  answer,
  sent,
}: {
  id: string;
  answer: string;
  sent: RequestAnswer;
}): Promise<PrivacyRequestResponse> {
  return apiRequest(`/api/privacy/requests/${encodeURIComponent(id)}/close`, { method: "POST", body: { answer, sent } });
}

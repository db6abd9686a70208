import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { Locale } from "@/lib/i18n/locales";
import { apiFile, apiRequest } from "@/lib/shared/api-client/api-request";
import { saveBlob } from "@/lib/shared/api-client/csv-download";

import type { ErasureListResponse, ErasureResponse } from "./erasure";
import type { PrivacyRequestListResponse, PrivacyRequestResponse, RequestAnswer, RequestChannel, RequestKind } from "./requests";
import type { RetentionReportDto } from "./retention";
import { reportFileName, type ReportFormat, type TitularReport } from "./titular";

/*
 * Erasure requests in the browser (/admin/privacy). Asking and confirming need a fresh second factor: a
 * refusal opens the step-up dialog and the same request is sent again (lib/shared/api-client/api-request.ts).
 * Every outcome, refused ones too, reloads the list: a 409 means someone else decided first.
 */

export const erasureKeys = {
  all: ["privacy", "erasures"] as const,
  list: () => [...erasureKeys.all, "list"] as const,
};

export function fetchErasures(signal?: AbortSignal): Promise<ErasureListResponse> {
  return apiRequest("/api/privacy/erasures", { signal });
}

export function postErasure(input: { cpf: string; reason: string }): Promise<ErasureResponse> {
  return apiRequest("/api/privacy/erasures", { method: "POST", body: input });
}

export function postErasureDecision({ id, decision }: { id: string; decision: "confirm" | "cancel" }): Promise<ErasureResponse> {
  return apiRequest(`/api/privacy/erasures/${encodeURIComponent(id)}/${decision}`, { method: "POST" });
}

export function useErasures({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: erasureKeys.list(), queryFn: ({ signal }) => fetchErasures(signal), enabled, retry: false });
}

export function useRequestErasure() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: postErasure, onSettled: () => queryClient.invalidateQueries({ queryKey: erasureKeys.all }) });
}

export function useDecideErasure() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: postErasureDecision, onSettled: () => queryClient.invalidateQueries({ queryKey: erasureKeys.all }) });
}

/*
 * The privacy page in the browser. The retention policies are a query. A titular report is a POST (the CPF
 * travels in the body, never in a URL or a query key), so it is a mutation: the report stays in the component
 * that shows it and is never cached under a key; a CSV or PDF goes straight to the browser's save.
 */

export const privacyKeys = {
  all: ["privacy"] as const,
  retention: () => [...privacyKeys.all, "retention"] as const,
  report: () => [...privacyKeys.all, "report"] as const,
};

export interface TitularReportRequest {
  cpf: string;
  locale: Locale;
}

export function fetchRetention(signal?: AbortSignal): Promise<RetentionReportDto> {
  return apiRequest("/api/privacy/retention", { signal });
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

export function useRetention() {
  return useQuery({ queryKey: privacyKeys.retention(), queryFn: ({ signal }) => fetchRetention(signal) });
}

export function useTitularReport() {
  return useMutation({ mutationKey: privacyKeys.report(), mutationFn: postTitularReport });
}

export function useTitularReportDownload() {
  return useMutation({ mutationKey: [...privacyKeys.report(), "file"], mutationFn: downloadTitularReport });
}

/*
 * Titular requests in the browser (/admin/privacy): the queue is a query (no CPF in it: masked only); registering
 * one sends the CPF in the body, never in a URL or a query key; closing one reloads the queue, refused ones too (a 409
 * means someone else closed it first, or the report or erasure it names was not made yet).
 */

export const requestKeys = {
  all: ["privacy", "requests"] as const,
  list: () => [...requestKeys.all, "list"] as const,
};

export interface PrivacyRequestInput {
  cpf: string;
  kind: RequestKind;
  channel: RequestChannel;
  receivedAt: string;
  contact?: string;
}

export function fetchPrivacyRequests(signal?: AbortSignal): Promise<PrivacyRequestListResponse> {
  return apiRequest("/api/privacy/requests", { signal });
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

export function usePrivacyRequests() {
  return useQuery({ queryKey: requestKeys.list(), queryFn: ({ signal }) => fetchPrivacyRequests(signal), retry: false });
}

export function useOpenPrivacyRequest() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: postPrivacyRequest, onSettled: () => queryClient.invalidateQueries({ queryKey: requestKeys.all }) });
}

export function useClosePrivacyRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postPrivacyRequestClose,
    onSettled: () => queryClient.invalidateQueries({ queryKey: requestKeys.all }),
  });
}

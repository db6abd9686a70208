import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiRequest } from "@/lib/shared/api-client/api-request";

import type { CoafGround, SuspiciousActivityDto, SuspiciousActivityListResponse } from "./coaf";

/*
 * Suspicious-activity reports to COAF in the browser: the reports page's list, opening a draft from the case page and
 * recording a draft's protocol. Both writes need a fresh second factor: a refusal opens the step-up dialog and the
 * same request is sent again (lib/shared/api-client/api-request.ts). Nothing here touches the case's own queries:
 * the case page shows nothing of a report (no tipping off).
 */

export const coafKeys = {
  all: ["coaf"] as const,
  list: () => [...coafKeys.all, "list"] as const,
};

export interface OpenCoafReportInput {
  summary: string;
  grounds: CoafGround[];
  operations: Array<{ date: string; amount: number; description: string }>;
}

export function useCoafReports() {
  return useQuery({
    queryKey: coafKeys.list(),
    queryFn: ({ signal }) => apiRequest<SuspiciousActivityListResponse>("/api/suspicious-activity", { signal }),
  });
}

export function useOpenCoafReport(publicId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OpenCoafReportInput) =>
      apiRequest<{ report: SuspiciousActivityDto }>(`/api/cases/${encodeURIComponent(publicId)}/suspicious-activity`, {
        method: "POST",
        body: input,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: coafKeys.all }),
  });
}

export function useFileCoafReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, protocol, filedAt }: { id: string; protocol: string; filedAt: string }) =>
      apiRequest<{ report: SuspiciousActivityDto }>(`/api/suspicious-activity/${encodeURIComponent(id)}/filed`, {
        method: "POST",
        body: { protocol, filedAt },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: coafKeys.all }),
  });
}

/** The dossier's address (a download through ApiAnchor, which adds the page's connection). */
export function dossierHref(id: string, format: "json" | "pdf"): string {
  return `/api/suspicious-activity/${encodeURIComponent(id)}/dossier?format=${format}`;
}

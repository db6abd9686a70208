import { useMutation } from "@tanstack/react-query";

import { apiRequest } from "@/lib/shared/api-client/api-request";

import type { CoafGround, SuspiciousActivityDto } from "./coaf";

/*
 * Opening a suspicious-activity report to COAF from the case page. The write needs a fresh second factor: a refusal
 * opens the step-up dialog and the same request is sent again (lib/shared/api-client/api-request.ts). Nothing here
 * touches the case's own queries: the case page shows nothing of a report (no tipping off). The reports page draws
 * its list on the server; its requests are in ./coaf-requests.ts.
 */

export interface OpenCoafReportInput {
  summary: string;
  grounds: CoafGround[];
  operations: Array<{ date: string; amount: number; description: string }>;
}

export function useOpenCoafReport(publicId: string) {
  return useMutation({
    mutationFn: (input: OpenCoafReportInput) =>
      apiRequest<{ report: SuspiciousActivityDto }>(`/api/cases/${encodeURIComponent(publicId)}/suspicious-activity`, {
        method: "POST",
        body: input,
      }),
  });
}

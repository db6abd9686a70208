import { apiRequest } from "@/lib/shared/api-client/api-request";

import type { SuspiciousActivityDto } from "./coaf";

/*
 * The reports page's requests from the browser (/compliance/coaf, drawn on the server): recording a draft's SISCOAF
 * protocol, after which the page is drawn again (components/ui/use-refreshing-request.ts), and the dossier's address.
 * The write needs a fresh second factor: a refusal opens the step-up dialog and the same request is sent again.
 */

export const fileCoafReport = ({ id, protocol, filedAt }: { id: string; protocol: string; filedAt: string }) =>
  apiRequest<{ report: SuspiciousActivityDto }>(`/api/suspicious-activity/${encodeURIComponent(id)}/filed`, {
    method: "POST",
    body: { protocol, filedAt },
  });

/** The dossier's address (a download through ApiAnchor, which adds the page's connection). */
export function dossierHref(id: string, format: "json" | "pdf"): string {
  return `/api/suspicious-activity/${encodeURIComponent(id)}/dossier?format=${format}`;
}

import type { ScreeningBudget, ScreeningRunResult } from "@/lib/monitoring/types";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * The ongoing screening's settings from the browser (/admin/cases, drawn on the server): its daily budget, and a run
 * now, after which the page is drawn again with what the run spent (components/ui/use-refreshing-request.ts).
 */

export const saveScreeningBudget = (body: { dailyBudget: number }) =>
  apiRequest<ScreeningBudget>("/api/monitoring/settings", { method: "PUT", body });

export const runScreening = () => apiRequest<ScreeningRunResult>("/api/monitoring/run", { method: "POST", body: {} });

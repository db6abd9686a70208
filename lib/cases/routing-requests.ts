import type { RoutingConfigInput } from "@/lib/cases/routing-validation";
import type { TakeSettings } from "@/lib/cases/take-mode";
import type { RoutingConfig } from "@/lib/cases/types";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * /admin/cases's requests from the browser (the page is drawn on the server with what they change): saving the team's
 * routing and how a member takes a case. Each answers with what was stored, which the form shows as its new state; the
 * page is drawn again after (components/ui/use-refreshing-request.ts). No react-query here.
 */

export const saveRouting = (body: RoutingConfigInput) => apiRequest<RoutingConfig>("/api/cases/routing", { method: "PUT", body });

export const saveTakeSettings = (body: TakeSettings) => apiRequest<TakeSettings>("/api/cases/settings", { method: "PUT", body });

import type { CreatedIntegrationResponse, RetiredIntegrationResponse } from "@/lib/integrations/types";
import type { CreateIntegrationInput, RetireIntegrationInput } from "@/lib/integrations/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * Integration keys' requests from the browser. The page draws the list (metadata, and which keys can still be
 * revealed) on the server; creating, revealing, forgetting and retiring are requests whose answers stay in the
 * component that shows them (the key value lives only there, never in a cache), and the page is drawn again after
 * them (components/ui/use-refreshing-request.ts). Retiring marks a key retired here (no call to the service).
 */

export function postIntegration(input: CreateIntegrationInput): Promise<CreatedIntegrationResponse> {
  return apiRequest("/api/integrations", { method: "POST", body: input });
}

export function postRevealIntegrationKey(upstreamId: number): Promise<CreatedIntegrationResponse> {
  return apiRequest("/api/integrations/reveal", { method: "POST", body: { upstreamId } });
}

export function deleteRevealIntegrationKey(upstreamId: number): Promise<{ forgotten: number }> {
  return apiRequest("/api/integrations/reveal", { method: "DELETE", body: { upstreamId } });
}

export function postRetireIntegrationKey({
  upstreamId,
  ...body
}: RetireIntegrationInput & { upstreamId: number }): Promise<RetiredIntegrationResponse> {
  return apiRequest(`/api/integrations/${encodeURIComponent(String(upstreamId))}/retire`, { method: "POST", body });
}

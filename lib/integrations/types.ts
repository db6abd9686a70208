// Shared (no server imports): what the integration key routes answer.

import type { IntegrationKeySummary } from "./schemas";

/** A key the admin created in the last few minutes and can still reveal (no value here). */
export interface RevealableKeyDto {
  upstreamId: number;
  label: string;
  domain: string;
  createdAt: string;
  revealUntil: string;
}

/** GET /api/integrations */
export interface IntegrationListResponse {
  keys: IntegrationKeySummary[];
  revealable: RevealableKeyDto[];
  revealWindowSeconds: number;
}

/** POST /api/integrations (201) and POST /api/integrations/reveal: the key value, once. */
export interface CreatedIntegrationResponse {
  integration: {
    upstreamId: number | null;
    label: string;
    /** As the service stored it: a host without scheme. */
    domain: string;
    createdAt: string | null;
    updatedAt: string | null;
    /** The key value. */
    key: string;
  };
  revealUntil: string;
}

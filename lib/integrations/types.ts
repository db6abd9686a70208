// Shared (no server imports): what the integration key routes answer.

import type { IntegrationKeySummary } from "./validation";

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

/** POST /api/integrations/{upstreamId}/retire: the key as now listed (marked retired here). */
export interface RetiredIntegrationResponse {
  key: IntegrationKeySummary;
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

/** GET /api/upstream/calls: calls to the service (the provider key's quota), counted per route or job and operation. */
export interface UpstreamCallsReport {
  /** Today and the first day of the week (the last 7 days, today included), YYYY-MM-DD in the display time zone. */
  today: string;
  weekFrom: string;
  /** The week's days, oldest first, with the calls to each API. */
  days: Array<{ day: string; core: number; partners: number }>;
  /** One row per source and kind seen this week, most calls first. */
  rows: Array<{ source: string; kind: string; today: number; week: number }>;
  totals: { today: number; week: number };
}

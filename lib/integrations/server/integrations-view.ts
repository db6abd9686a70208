import "server-only";

import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import type { IntegrationListResponse } from "@/lib/integrations/types";

import { listIntegrationKeys } from "./integrations";
import { revealableEntries, toRevealableDto } from "./reveal";

/** What GET /api/integrations answers and the page prefetches: the registry and this admin's revealable keys (no values). */
export async function integrationListFor(userId: string, cookieHeader: string | null): Promise<IntegrationListResponse> {
  const [keys, entries] = await Promise.all([listIntegrationKeys(await getDb()), revealableEntries(cookieHeader, userId)]);
  return { keys, revealable: entries.map(toRevealableDto), revealWindowSeconds: config().integrationKeyRevealSeconds };
}

import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { createIntegrationKey } from "@/lib/integrations/server/integrations";
import { integrationListFor } from "@/lib/integrations/server/integrations-view";
import { revealableEntries, setRevealCookie } from "@/lib/integrations/server/reveal";
import type { CreatedIntegrationResponse, IntegrationListResponse } from "@/lib/integrations/types";
import { createIntegrationSchemaFor } from "@/lib/integrations/validation";
import { partnersClient } from "@/lib/upstream/partners";

// GET /api/integrations – the keys created from the dashboard (metadata only) and those this admin can still reveal.
export const GET = route({ permission: "integrations.manage" }, async ({ request, user }) =>
  json<IntegrationListResponse>(await integrationListFor(user.id, request.headers.get("cookie"))),
);

// POST /api/integrations – creates a key; its value is in this answer once and in the sealed reveal cookie, nowhere else.
// The private suffixes this deployment accepts are read when the first body is checked, not at import.
const createBody = z.lazy(() => createIntegrationSchemaFor(config().integrationPrivateDomains));

export const POST = route(
  { permission: "integrations.manage", stepUp: true, body: createBody },
  async ({ db, request, user, context, body: input }) => {
    const integration = await createIntegrationKey(db, partnersClient(), context, { input });
    const now = Date.now();
    // The same instant the cookie's entry gets (same `now`, same window).
    const revealUntil = new Date(now + config().integrationKeyRevealSeconds * 1000).toISOString();
    const { id: upstreamId, label, domain, createdAt, updatedAt, uuid: key } = integration;
    const body: CreatedIntegrationResponse = { integration: { upstreamId, label, domain, createdAt, updatedAt, key }, revealUntil };
    const response = json(body, { status: 201 });
    if (upstreamId !== null) {
      const existing = await revealableEntries(request.headers.get("cookie"), user.id, now);
      await setRevealCookie(response, user.id, existing, { upstreamId, label, domain, uuid: key }, now);
    }
    return response;
  },
);

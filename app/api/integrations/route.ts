import { toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { auditContext, noStoreJson, readJson } from "@/lib/partners-ops/http";
import { createIntegrationKey } from "@/lib/partners-ops/integrations";
import { integrationListFor } from "@/lib/partners-ops/integrations-view";
import { revealableEntries, setRevealCookie } from "@/lib/partners-ops/reveal";
import type { CreatedIntegrationResponse, IntegrationListResponse } from "@/lib/partners-ops/types";
import { partnersClient } from "@/lib/upstream/partners";
import { createIntegrationSchema } from "@/lib/validations/integrations";

// GET /api/integrations – the keys created from the dashboard (metadata only) and those this admin can still reveal.
export async function GET(request: Request) {
  try {
    const user = await requireUser(request, "admin");
    return noStoreJson<IntegrationListResponse>(await integrationListFor(user.id, request.headers.get("cookie")));
  } catch (error) {
    return toErrorResponse(error);
  }
}

// POST /api/integrations – creates a key; its value is in this answer once and in the sealed reveal cookie, nowhere else.
export async function POST(request: Request) {
  try {
    const user = await requireUser(request, "admin");
    const input = createIntegrationSchema.parse(await readJson(request));
    const integration = await createIntegrationKey(await getDb(), partnersClient(), { ...auditContext(user, request), input });
    const now = Date.now();
    // The same instant the cookie's entry gets (same `now`, same window).
    const revealUntil = new Date(now + config().integrationKeyRevealSeconds * 1000).toISOString();
    const body: CreatedIntegrationResponse = {
      integration: {
        upstreamId: integration.id,
        label: integration.label,
        domain: integration.domain,
        createdAt: integration.createdAt,
        updatedAt: integration.updatedAt,
        key: integration.uuid,
      },
      revealUntil,
    };
    const response = noStoreJson(body, { status: 201 });
    if (integration.id !== null) {
      const existing = await revealableEntries(request.headers.get("cookie"), user.id, now);
      const key = { upstreamId: integration.id, label: integration.label, domain: integration.domain, uuid: integration.uuid };
      await setRevealCookie(response, user.id, existing, key, now);
    }
    return response;
  } catch (error) {
    return toErrorResponse(error);
  }
}

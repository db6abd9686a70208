import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { retireIntegrationKey } from "@/lib/integrations/server/retire";
import { revealableEntries, rewriteRevealCookie } from "@/lib/integrations/server/reveal";
import type { RetiredIntegrationResponse } from "@/lib/integrations/types";
import { retireIntegrationSchema } from "@/lib/integrations/validation";

export const dynamic = "force-dynamic";

// The service's id of a key (the registry's `upstream_id`).
const params = z.object({
  upstreamId: z
    .string()
    .regex(/^\d{1,15}$/, { message: "must be a key's id" })
    .transform(Number),
});

// POST /api/integrations/{upstreamId}/retire – marks a key created here retired, with the reason; no call to the service,
// which offers no way to revoke a key (the admin revokes it in the provider's own dashboard). 404 unknown, 409 already
// retired. The key also leaves this admin's reveal cookie.
export const POST = route(
  { permission: "integrations.manage", stepUp: true, params, body: retireIntegrationSchema },
  async ({ db, request, user, context, params: { upstreamId }, body: { reason } }) => {
    const key = await retireIntegrationKey(db, context, { upstreamId, reason });
    const response = json<RetiredIntegrationResponse>({ key });
    const entries = await revealableEntries(request.headers.get("cookie"), user.id);
    const left = entries.filter((entry) => entry.upstreamId !== upstreamId);
    if (left.length < entries.length) await rewriteRevealCookie(response, user.id, left);
    return response;
  },
);

import { z } from "zod";

import { toErrorResponse } from "@/lib/api/errors";
import { json, route } from "@/lib/api/route";
import { audited } from "@/lib/audit-trail/server";
import { KeyRevealGoneError } from "@/lib/integrations/server/integrations";
import { isRetiredKey } from "@/lib/integrations/server/retire";
import { revealableEntries, rewriteRevealCookie } from "@/lib/integrations/server/reveal";
import type { CreatedIntegrationResponse } from "@/lib/integrations/types";

const revealSchema = z.strictObject({ upstreamId: z.number().int() });
const forgetSchema = z.strictObject({ upstreamId: z.number().int().optional() }).optional();

// POST /api/integrations/reveal – the value of a key this admin created within the reveal window, from the sealed cookie.
export const POST = route(
  { permission: "integrations.manage", stepUp: true, body: revealSchema },
  async ({ db, request, user, context, body: { upstreamId } }) => {
    // A key another admin retired meanwhile is no longer shown, and leaves the cookie with the refusal.
    const retired = await isRetiredKey(db, upstreamId);
    const entries = (await revealableEntries(request.headers.get("cookie"), user.id)).filter(
      (item) => !(retired && item.upstreamId === upstreamId),
    );
    const target = { type: "integration", id: String(upstreamId) };
    try {
      const entry = await audited(context, { action: "integration.key_reveal", target }, async () => {
        const found = entries.find((item) => item.upstreamId === upstreamId);
        if (!found) throw new KeyRevealGoneError();
        return found;
      });
      const { label, domain, uuid: key } = entry;
      const body: CreatedIntegrationResponse = {
        integration: { upstreamId, label, domain, createdAt: new Date(entry.createdAt).toISOString(), updatedAt: null, key },
        revealUntil: new Date(entry.expiresAt).toISOString(),
      };
      return json(body);
    } catch (error) {
      // The refusal also drops the entries whose window has passed from the cookie.
      const response = toErrorResponse(error);
      await rewriteRevealCookie(response, user.id, entries);
      return response;
    }
  },
);

// DELETE /api/integrations/reveal – forgets one key (or all, without a body) from the reveal cookie: the admin has stored it.
export const DELETE = route({ permission: "integrations.manage", body: forgetSchema }, async ({ request, user, context, body }) => {
  const upstreamId = body?.upstreamId;
  const entries = await revealableEntries(request.headers.get("cookie"), user.id);
  const left = upstreamId === undefined ? [] : entries.filter((item) => item.upstreamId !== upstreamId);
  const target = upstreamId === undefined ? undefined : { type: "integration", id: String(upstreamId) };
  const forgotten = entries.length - left.length;
  await audited(context, { action: "integration.key_forget", target, details: { forgotten } }, async () => undefined);
  const response = json({ forgotten });
  await rewriteRevealCookie(response, user.id, left);
  return response;
});

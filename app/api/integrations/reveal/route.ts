import { z } from "zod";

import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { record } from "@/lib/audit";
import { requireUser } from "@/lib/auth/require-role";
import { auditContext, noStoreJson, readJson } from "@/lib/partners-ops/http";
import { recordKeyReveal } from "@/lib/partners-ops/integrations";
import { revealableEntries, rewriteRevealCookie } from "@/lib/partners-ops/reveal";
import type { CreatedIntegrationResponse } from "@/lib/partners-ops/types";

const revealSchema = z.strictObject({ upstreamId: z.number().int() });
const forgetSchema = z.strictObject({ upstreamId: z.number().int().optional() });

// POST /api/integrations/reveal – the value of a key this admin created within the reveal window, from the sealed cookie.
export async function POST(request: Request) {
  try {
    const user = await requireUser(request, "admin");
    const { upstreamId } = revealSchema.parse(await readJson(request));
    const context = auditContext(user, request);
    const entries = await revealableEntries(request.headers.get("cookie"), user.id);
    const entry = entries.find((item) => item.upstreamId === upstreamId);
    if (!entry) {
      await recordKeyReveal(context.actor, context.ip, upstreamId, "denied");
      const response = toErrorResponse(new ApiError("not_found", "This key can no longer be shown: its reveal window has passed."));
      await rewriteRevealCookie(response, user.id, entries);
      return response;
    }
    await recordKeyReveal(context.actor, context.ip, upstreamId, "success");
    const body: CreatedIntegrationResponse = {
      integration: {
        upstreamId: entry.upstreamId,
        label: entry.label,
        domain: entry.domain,
        createdAt: new Date(entry.createdAt).toISOString(),
        updatedAt: null,
        key: entry.uuid,
      },
      revealUntil: new Date(entry.expiresAt).toISOString(),
    };
    return noStoreJson(body);
  } catch (error) {
    return toErrorResponse(error);
  }
}

// DELETE /api/integrations/reveal – forgets one key (or all) from the reveal cookie: the admin has stored it.
export async function DELETE(request: Request) {
  try {
    const user = await requireUser(request, "admin");
    const hasBody = (request.headers.get("content-length") ?? "0") !== "0" || request.headers.has("content-type");
    const { upstreamId } = forgetSchema.parse(hasBody ? await readJson(request) : {});
    const context = auditContext(user, request);
    const entries = await revealableEntries(request.headers.get("cookie"), user.id);
    const left = upstreamId === undefined ? [] : entries.filter((item) => item.upstreamId !== upstreamId);
    await record({
      ...context,
      action: "integration.key_forget",
      target: upstreamId === undefined ? undefined : { type: "integration", id: String(upstreamId) },
      outcome: "success",
      details: { forgotten: entries.length - left.length },
    });
    const response = noStoreJson({ forgotten: entries.length - left.length });
    await rewriteRevealCookie(response, user.id, left);
    return response;
  } catch (error) {
    return toErrorResponse(error);
  }
}

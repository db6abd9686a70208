import { json, route } from "@/lib/api/route";
import { hasPermission } from "@/lib/auth/permissions";
import { closeRequest } from "@/lib/privacy/server/requests";
import { closeRequestSchema, privacyRequestParamsSchema } from "@/lib/privacy/validation";

export const dynamic = "force-dynamic";

// POST /api/privacy/requests/{id}/close – closes an open titular request with what was sent `{answer, sent}`:
// `report` needs a titular report about the person built since the request was received, `erasure` an erasure asked
// since then (409 otherwise, and for a request already closed); audited as `privacy.request.close`.
export const POST = route(
  { permission: "privacy.requests", params: privacyRequestParamsSchema, body: closeRequestSchema },
  async ({ db, user, context, params, body }) => {
    const viewer = { id: user.id, unmasked: hasPermission(user, "personal_data.unmasked") };
    const request = await closeRequest(db, { ...context, actor: { id: user.id, email: user.email } }, params.id, body, viewer);
    return json({ request });
  },
);

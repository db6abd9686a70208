import { json, route } from "@/lib/api/route";
import { hasPermission } from "@/lib/auth/permissions";
import { listRequests, openRequest } from "@/lib/privacy/server/requests";
import { privacyRequestSchema } from "@/lib/privacy/validation";

export const dynamic = "force-dynamic";

// GET /api/privacy/requests – the titular requests: the open ones by days left (late first), then the latest closed
// ones; the CPF masked (never stored), the contact masked unless the member holds personal_data.unmasked.
export const GET = route({ permission: "privacy.requests" }, async ({ db, user }) =>
  json(await listRequests(db, { id: user.id, unmasked: hasPermission(user, "personal_data.unmasked") })),
);

// POST /api/privacy/requests – registers a titular's request `{cpf, kind, channel, receivedAt, contact?}`, due
// PRIVACY_REQUEST_DUE_DAYS (15) after receipt; audited as `privacy.request.open`. The CPF travels in this body only.
export const POST = route({ permission: "privacy.requests", body: privacyRequestSchema }, async ({ db, user, context, body }) => {
  const viewer = { id: user.id, unmasked: hasPermission(user, "personal_data.unmasked") };
  const request = await openRequest(db, { ...context, actor: { id: user.id, email: user.email } }, body, viewer);
  return json({ request }, { status: 201 });
});

import { json, route } from "@/lib/api/route";
import { cancelErasure } from "@/lib/privacy/server/erasure";
import { erasureParamsSchema } from "@/lib/privacy/validation";

export const dynamic = "force-dynamic";

// POST /api/privacy/erasures/{id}/cancel – withdraws a pending erasure (its requester or another member); nothing
// is erased. A request no longer pending: 409.
export const POST = route({ permission: "privacy.erase", params: erasureParamsSchema }, async ({ db, user, context, params }) => {
  const erasure = await cancelErasure(db, { ...context, actor: { id: user.id, email: user.email } }, params.id);
  return json({ erasure });
});

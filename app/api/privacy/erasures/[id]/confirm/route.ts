import { json, route } from "@/lib/api/route";
import { confirmErasure } from "@/lib/privacy/server/erasure";
import { erasureParamsSchema } from "@/lib/privacy/validation";

export const dynamic = "force-dynamic";

// POST /api/privacy/erasures/{id}/confirm – a second member carries out a pending erasure; the answer lists what
// was erased and what was kept, and why. Its requester, a request no longer pending, or a member whose account the
// requester made, re-enabled or gave its role around the request (confirmer_not_independent): 409.
export const POST = route(
  { permission: "privacy.erase", stepUp: true, params: erasureParamsSchema },
  async ({ db, user, context, params }) => {
    const erasure = await confirmErasure(db, { ...context, actor: { id: user.id, email: user.email } }, params.id);
    return json({ erasure });
  },
);

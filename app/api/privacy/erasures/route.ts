import { json, route } from "@/lib/api/route";
import { listErasures, requestErasure } from "@/lib/privacy/server/erasure";
import { erasureRequestSchema } from "@/lib/privacy/validation";

export const dynamic = "force-dynamic";

// GET /api/privacy/erasures – the erasure requests waiting for a second member, then the latest decided ones
// (the CPF masked; never the CPF).
export const GET = route({ permission: "privacy.erase" }, async ({ db, user }) => json(await listErasures(db, user.id)));

// POST /api/privacy/erasures – asks for a person's erasure `{cpf, reason}`; another member must confirm it.
export const POST = route(
  { permission: "privacy.erase", stepUp: true, body: erasureRequestSchema },
  async ({ db, user, context, body }) => {
    const erasure = await requestErasure(db, { ...context, actor: { id: user.id, email: user.email } }, body);
    return json({ erasure }, { status: 201 });
  },
);

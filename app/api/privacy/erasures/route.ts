import { json, route } from "@/lib/api/route";
import { getDb } from "@/lib/db/client";
import { erasureRequestSchema } from "@/lib/privacy/validation";
import { listErasures, requestErasure } from "@/lib/privacy/server/erasure";

export const dynamic = "force-dynamic";

// GET /api/privacy/erasures – the erasure requests waiting for a second member, then the latest decided ones
// (the CPF masked; never the CPF).
export const GET = route({ permission: "privacy.erase" }, async ({ user }) => json(await listErasures(await getDb(), user.id)));

// POST /api/privacy/erasures – asks for a person's erasure `{cpf, reason}`; another member must confirm it.
export const POST = route({ permission: "privacy.erase", stepUp: true, body: erasureRequestSchema }, async ({ user, context, body }) => {
  const erasure = await requestErasure(await getDb(), { ...context, actor: { id: user.id, email: user.email } }, body);
  return json({ erasure }, { status: 201 });
});

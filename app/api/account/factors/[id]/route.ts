import { json, route } from "@/lib/api/route";
import { factorIdSchema } from "@/lib/auth/schemas";
import { removeFactor } from "@/lib/auth/server/factors";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

// DELETE /api/account/factors/:id – removes one of the member's factors; a step-up first. The last one cannot
// go while the policy requires a factor of the member (409).
export const DELETE = route({ permission: "signed_in", stepUp: true, params: factorIdSchema }, async ({ user, context, params }) => {
  await removeFactor(await getDb(), user, params.id, context);
  return json({ removed: true });
});

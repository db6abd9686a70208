import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { isRoleRef } from "@/lib/auth/roles";
import { retireRole, updateRole } from "@/lib/roles/server/roles";
import { updateRoleSchema } from "@/lib/roles/validation";

export const dynamic = "force-dynamic";

// A custom role's id; a built-in role's name gets past this and is refused as built-in (403).
const params = z.object({ id: z.string().refine(isRoleRef, { message: "must be a role's id" }) });

// PATCH /api/roles/:id – rename a custom role and/or replace its permissions; its members get the new
// permissions on their next request, on every instance.
export const PATCH = route(
  { permission: "roles.manage", stepUp: true, params, body: updateRoleSchema },
  async ({ db, user: actor, context, params: { id }, body }) => {
    const role = await updateRole(db, { actor, ip: context.ip }, id, body);
    return json({ role });
  },
);

// DELETE /api/roles/:id – retire a custom role; refused (409, naming how many) while any staff account holds it.
export const DELETE = route({ permission: "roles.manage", stepUp: true, params }, async ({ db, user: actor, context, params: { id } }) => {
  await retireRole(db, { actor, ip: context.ip }, id);
  return json({ retired: id });
});

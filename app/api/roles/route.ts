import { json, route } from "@/lib/api/route";
import { getDb } from "@/lib/db/client";
import { createRoleSchema } from "@/lib/roles/validation";
import { createRole, listRoles } from "@/lib/roles/server/roles";

export const dynamic = "force-dynamic";

// GET /api/roles – every role a member can be given: the built-in ones, then the live custom ones, each with
// its permissions and how many staff accounts hold it.
export const GET = route({ permission: "roles.manage" }, async () => json({ roles: await listRoles(await getDb()) }));

// POST /api/roles – a custom role `{name, permissions}`; an unknown permission or a taken name is refused by field.
export const POST = route({ permission: "roles.manage", stepUp: true, body: createRoleSchema }, async ({ user: actor, context, body }) => {
  const role = await createRole(await getDb(), { actor, ip: context.ip }, body);
  return json({ role }, { status: 201 });
});

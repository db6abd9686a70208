import { json, route } from "@/lib/api/route";
import { createRole, listRoles } from "@/lib/roles/server/roles";
import { createRoleSchema } from "@/lib/roles/validation";

export const dynamic = "force-dynamic";

// GET /api/roles – every role a member can be given: the built-in ones, then the live custom ones, each with
// its permissions and how many staff accounts hold it.
export const GET = route({ permission: "roles.manage" }, async ({ db }) => json({ roles: await listRoles(db) }));

// POST /api/roles – a custom role `{name, permissions}`; an unknown permission or a taken name is refused by field.
export const POST = route(
  { permission: "roles.manage", stepUp: true, body: createRoleSchema },
  async ({ db, user: actor, context, body }) => {
    const role = await createRole(db, { actor, ip: context.ip }, body);
    return json({ role }, { status: 201 });
  },
);

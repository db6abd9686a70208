import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { getDb } from "@/lib/db/client";
import { changeStaff } from "@/lib/staff/server/staff";
import { updateStaffSchema } from "@/lib/staff/schemas";

export const dynamic = "force-dynamic";

// PATCH /api/staff/:id – change role and/or disable or re-enable an account (admin). The last active
// admin (LastAdminError, 409) and an unknown id (StaffNotFoundError, 404) are typed errors.
export const PATCH = route(
  { permission: "staff.manage", params: z.object({ id: z.uuid() }), body: updateStaffSchema },
  async ({ user: actor, context, params: { id }, body: change }) => {
    const user = await changeStaff(await getDb(), { actor, ip: context.ip, id, change });
    return json({ user });
  },
);

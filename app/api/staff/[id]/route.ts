import { z } from "zod";

import { releaseDisabledMember } from "@/lib/account/server/availability";
import { json, route } from "@/lib/api/route";
import { assertStepUp } from "@/lib/auth/server/require-role";
import { changeStaff } from "@/lib/staff/server/staff";
import { updateStaffSchema } from "@/lib/staff/validation";

export const dynamic = "force-dynamic";

// PATCH /api/staff/:id – change role, single-sign-on-only, and/or disable or re-enable an account (admin). A
// change of who may do what (role, sign-in method) asks for a step-up; disabling does not (it only takes
// away). The last active admin (LastAdminError, 409) and an unknown id (StaffNotFoundError, 404) are typed errors.
export const PATCH = route(
  { permission: "staff.manage", params: z.object({ id: z.uuid() }), body: updateStaffSchema },
  async ({ db, user: actor, context, params: { id }, body: change }) => {
    if (change.role !== undefined || change.ssoOnly !== undefined) assertStepUp(actor);
    const user = await changeStaff(db, { actor, ip: context.ip, id, change });
    // A disabled member's open cases and alerts go back to their queues (lib/account: the staff feature knows neither).
    if (change.disabled === true) await releaseDisabledMember(db, id, actor, context.ip);
    return json({ user });
  },
);

import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { unlockStaffSignIn } from "@/lib/staff/server/staff";

export const dynamic = "force-dynamic";

// POST /api/staff/:id/unlock – lift every sign-in lock on the account and its slow-down (admin). An
// unknown id is the typed StaffNotFoundError (404).
export const POST = route(
  { permission: "staff.manage", params: z.object({ id: z.uuid() }), body: z.object({}).strict() },
  async ({ db, user: actor, context, params: { id } }) => json({ signIn: await unlockStaffSignIn(db, { actor, ip: context.ip, id }) }),
);

import { z } from "zod";

import { factorNotices } from "@/lib/account/server/factor-notices";
import { json, route } from "@/lib/api/route";
import { resetFactors } from "@/lib/auth/server/factors";

export const dynamic = "force-dynamic";

// DELETE /api/staff/:id/factors – an admin's reset for a member who lost their factors (step-up first): every
// factor and recovery code removed, their sessions ended; they enrol again at their next sign-in if required.
export const DELETE = route(
  { permission: "staff.manage", stepUp: true, params: z.object({ id: z.uuid() }) },
  async ({ db, context, params: { id } }) => json({ removed: await resetFactors(db, id, { context, notices: factorNotices }) }),
);

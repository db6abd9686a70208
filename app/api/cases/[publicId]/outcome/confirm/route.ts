import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { caseContext } from "@/lib/cases/server/api";
import { confirmOutcome } from "@/lib/cases/server/outcome";
import { confirmationSchema } from "@/lib/cases/validation";
import { publicIdSchema } from "@/lib/verifications/validation";

// POST /api/cases/:publicId/outcome/confirm – {agree, comment}: four eyes. An admin or an analyst, never
// the outcome's author (403), nor a member whose account the author made, re-enabled or gave its role around the
// outcome (409 confirmer_not_independent); of two confirmations at once, one wins (409 for the other).
export const POST = route(
  { permission: "cases.confirm", params: z.object({ publicId: publicIdSchema }), body: confirmationSchema },
  async ({ db, user, context, params: { publicId }, body }) => json(await confirmOutcome(db, caseContext(user, context), publicId, body)),
);

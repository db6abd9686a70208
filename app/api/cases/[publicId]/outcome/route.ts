import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { caseContext } from "@/lib/cases/server/api";
import { recordOutcome } from "@/lib/cases/server/outcome";
import { outcomeSchema } from "@/lib/cases/validation";
import { publicIdSchema } from "@/lib/verifications/validation";

// POST /api/cases/:publicId/outcome – {recommendation, reasons, comment}; the assignee only. Recorded here;
// the provider's decision is untouched. Four-eyes cases answer `pending_confirmation`.
export const POST = route(
  { permission: "cases.work", params: z.object({ publicId: publicIdSchema }), body: outcomeSchema },
  async ({ db, request, user, context, params: { publicId }, body }) =>
    json(await recordOutcome(db, caseContext(user, context, request), publicId, body)),
);

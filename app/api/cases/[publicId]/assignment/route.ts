import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { caseContext } from "@/lib/cases/server/api";
import { assignCase } from "@/lib/cases/server/assignment";
import { assignmentSchema } from "@/lib/cases/validation";
import { publicIdSchema } from "@/lib/verifications/validation";

// POST /api/cases/:publicId/assignment – {assignee: "me" | staff id | null}. Someone else: admins only.
// A claim of a case someone holds is a 409 naming them; the action and its audit event commit together.
export const POST = route(
  { permission: "cases.work", params: z.object({ publicId: publicIdSchema }), body: assignmentSchema },
  async ({ db, user, context, params: { publicId }, body }) =>
    json(await assignCase(db, caseContext(user, context), publicId, body.assignee)),
);

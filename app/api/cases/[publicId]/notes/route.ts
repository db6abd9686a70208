import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { caseContext } from "@/lib/cases/server/api";
import { addNote } from "@/lib/cases/server/notes";
import { noteSchema } from "@/lib/cases/validation";
import { publicIdSchema } from "@/lib/verifications/validation";

// POST /api/cases/:publicId/notes – {text}: append-only, plain text, capped; by the case's assignee or a member
// holding cases.assign (403 otherwise). The trail records that a note was added (and its length), never its text.
export const POST = route(
  { permission: "cases.work", params: z.object({ publicId: publicIdSchema }), body: noteSchema },
  async ({ db, request, user, context, params: { publicId }, body }) =>
    json(await addNote(db, caseContext(user, context, request), publicId, body.text), { status: 201 }),
);

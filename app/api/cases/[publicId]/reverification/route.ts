import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { reverificationSchema } from "@/lib/cases/validation";
import { requestReverification } from "@/lib/verifications/server/reverification";
import { publicIdSchema } from "@/lib/verifications/validation";

// POST /api/cases/:publicId/reverification – {document?}: the case's assignee (or cases.assign) asks the person
// to verify again. A typed document must match this verification's (400 on document.number) before any
// creation; the intent is on the trail before the call. Answers the new verification, its address and a QR. It
// creates a verification upstream: its own permission, verifications.reverify, not case work's.
export const POST = route(
  { permission: "verifications.reverify", params: z.object({ publicId: publicIdSchema }), body: reverificationSchema },
  async ({ db, user, context, params: { publicId }, body }) =>
    json(await requestReverification(db, context, user, publicId, body), { status: 201 }),
);

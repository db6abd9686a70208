import { z } from "zod";

import { endOwnSession } from "@/lib/account/server/sessions";
import { json, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

// DELETE /api/account/sessions/:id – ends the member's device that session :id belongs to: every live session of it
// (404 when :id is not a live one of theirs).
export const DELETE = route(
  { permission: "signed_in", during: ["enrolment"], params: z.object({ id: z.uuid() }) },
  async ({ db, user, context, params }) => {
    await endOwnSession(db, user, params.id, context);
    return json({ ended: true });
  },
);

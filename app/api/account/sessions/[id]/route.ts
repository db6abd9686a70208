import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { endOwnSession } from "@/lib/auth/server/session-admin";

export const dynamic = "force-dynamic";

// DELETE /api/account/sessions/:id – ends one of the member's sessions (404 when it is not a live one of theirs).
export const DELETE = route(
  { permission: "signed_in", during: ["enrolment"], params: z.object({ id: z.uuid() }) },
  async ({ db, user, context, params }) => {
    await endOwnSession(db, user, params.id, context);
    return json({ ended: true });
  },
);

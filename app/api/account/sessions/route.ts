import { endOtherSessions, ownSessions } from "@/lib/account/server/sessions";
import { json, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

// GET /api/account/sessions – the member's live sessions, this one marked `current`.
export const GET = route({ permission: "signed_in", during: ["enrolment"] }, async ({ db, user }) =>
  json({ sessions: await ownSessions(db, user) }),
);

// DELETE /api/account/sessions – ends every other session of the member.
export const DELETE = route({ permission: "signed_in", during: ["enrolment"] }, async ({ db, user, context }) =>
  json({ ended: await endOtherSessions(db, user, context) }),
);

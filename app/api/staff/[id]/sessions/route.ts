import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { endMemberSessions, memberSessions } from "@/lib/auth/server/session-admin";

export const dynamic = "force-dynamic";

const params = z.object({ id: z.uuid() });

// GET /api/staff/:id/sessions – a member's live sessions (admin).
export const GET = route({ permission: "staff.manage", params }, async ({ db, params: { id } }) =>
  json({ sessions: await memberSessions(db, id) }),
);

// DELETE /api/staff/:id/sessions – ends every session of the member (admin); each stops on its next request.
export const DELETE = route({ permission: "staff.manage", params }, async ({ db, context, params: { id } }) =>
  json({ ended: await endMemberSessions(db, id, context) }),
);

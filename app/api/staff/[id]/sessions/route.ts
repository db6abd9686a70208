import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { endMemberSessions } from "@/lib/auth/server/session-admin";
import { memberDevices } from "@/lib/staff/server/sessions";

export const dynamic = "force-dynamic";

const params = z.object({ id: z.uuid() });

// GET /api/staff/:id/sessions – a member's live sessions, one entry per device with its count (admin).
export const GET = route({ permission: "staff.manage", params }, async ({ db, params: { id } }) =>
  json({ sessions: await memberDevices(db, id) }),
);

// DELETE /api/staff/:id/sessions – ends every session of the member (admin); each stops on its next request.
export const DELETE = route({ permission: "staff.manage", params }, async ({ db, context, params: { id } }) =>
  json({ ended: await endMemberSessions(db, id, context) }),
);

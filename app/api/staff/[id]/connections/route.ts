import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { changeConnections, connectionsOf } from "@/lib/staff/server/connections";
import { staffConnectionsSchema } from "@/lib/staff/validation";

export const dynamic = "force-dynamic";

const params = z.object({ id: z.uuid() });

// GET /api/staff/:id/connections – the connections the member may use and what each withholds from their role
// (`connections: null`: every one, nothing withheld). lib/connections/server/access.ts.
export const GET = route({ permission: "staff.manage", params }, async ({ db, params: { id } }) => json(await connectionsOf(db, id)));

// PUT /api/staff/:id/connections – replaces them: a change of who may do what, so a step-up; never one's own
// (OwnAccessError, 403), only a member whose permissions the caller all holds (permission_not_held, 403). Audited
// `staff.connections` with the connections' ids and the withheld permissions.
export const PUT = route(
  { permission: "staff.manage", stepUp: true, params, body: staffConnectionsSchema },
  async ({ db, user, context, params: { id }, body }) =>
    json(await changeConnections(db, { actor: user, ip: context.ip, id, grants: body.connections })),
);

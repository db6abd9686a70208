import { json, route } from "@/lib/api/route";
import { hasPermission } from "@/lib/auth/server/require-role";
import { mayUse } from "@/lib/connections/server/access";
import { addConnection } from "@/lib/connections/server/admin";
import { allConnectionRows, summaryOf } from "@/lib/connections/server/store";
import type { ConnectionListResponse, ConnectionResponse } from "@/lib/connections/types";
import { createConnectionSchema } from "@/lib/connections/validation";

export const dynamic = "force-dynamic";

// GET /api/connections – the live connections the caller may use (lib/connections/server/access.ts), the current one
// marked; admins (integrations.manage) see every one, retired ones too.
export const GET = route({ permission: "signed_in" }, async ({ db, user, connection, grants }) => {
  const admin = hasPermission(user, "integrations.manage");
  const rows = (await allConnectionRows(db)).filter((row) => admin || (row.retiredAt === null && mayUse(grants, row.id)));
  return json<ConnectionListResponse>({ connections: rows.map((row) => summaryOf(row, connection.id)) });
});

// POST /api/connections – adds a connection after testing its key; its secrets are sealed and never answered again.
export const POST = route(
  { permission: "integrations.manage", stepUp: true, body: createConnectionSchema },
  async ({ db, context, body }) => json<ConnectionResponse>({ connection: await addConnection(db, context, body) }, { status: 201 }),
);

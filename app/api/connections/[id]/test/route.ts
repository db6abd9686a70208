import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { testConnection } from "@/lib/connections/server/admin";
import { CONNECTION_ID_PATTERN, type ConnectionResponse } from "@/lib/connections/types";

export const dynamic = "force-dynamic";

const params = z.object({ id: z.string().regex(CONNECTION_ID_PATTERN, "must be a connection's id") });

// POST /api/connections/:id/test – asks the service once or twice what the key can do (read, media, unmasked).
export const POST = route({ permission: "integrations.manage", params }, async ({ db, context, params: { id } }) =>
  json<ConnectionResponse>({ connection: await testConnection(db, context, id) }),
);

import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { changeConnection } from "@/lib/connections/server/admin";
import { CONNECTION_ID_PATTERN, type ConnectionResponse } from "@/lib/connections/types";
import { updateConnectionSchema } from "@/lib/connections/validation";

export const dynamic = "force-dynamic";

const params = z.object({ id: z.string().regex(CONNECTION_ID_PATTERN, "must be a connection's id") });

// PATCH /api/connections/:id – one change: rename, rotate the key (tested first), set or remove the partners account, retire.
export const PATCH = route(
  { permission: "integrations.manage", stepUp: true, params, body: updateConnectionSchema },
  async ({ db, context, params: { id }, body }) => json<ConnectionResponse>({ connection: await changeConnection(db, context, id, body) }),
);

import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { getDb } from "@/lib/db/client";
import { deleteView } from "@/lib/views/server/views";

const params = z.object({ id: z.uuid("must be a view id") });

// DELETE /api/views/:id – delete one of the member's own saved views (anyone else's is 404).
export const DELETE = route({ permission: "signed_in", params }, async ({ user, params: { id } }) => {
  await deleteView(await getDb(), user, id);
  return json({ deleted: id });
});

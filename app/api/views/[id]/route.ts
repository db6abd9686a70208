import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { deleteView } from "@/lib/views/server/views";

const params = z.object({ id: z.uuid("must be a view id") });

// DELETE /api/views/:id – delete one of the member's own saved views under the connection (anyone else's is 404).
export const DELETE = route({ permission: "signed_in", params }, async ({ db, user, connection, params: { id } }) => {
  await deleteView(db, user, connection.id, id);
  return json({ deleted: id });
});

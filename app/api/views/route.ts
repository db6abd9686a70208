import { json, route } from "@/lib/api/route";
import { createView, listViews } from "@/lib/views/server/views";
import { saveViewSchema } from "@/lib/views/validation";

// GET /api/views – the member's saved views, under the connection, of the pages they may read (verification list, case
// queue).
export const GET = route({ permission: "signed_in" }, async ({ db, user, connection }) =>
  json({ views: await listViews(db, user, connection.id) }),
);

// POST /api/views – save the list's or queue's query string under a name (unique per member, connection and page, 409
// `name`).
export const POST = route({ permission: "signed_in", body: saveViewSchema }, async ({ db, user, connection, body }) =>
  json({ view: await createView(db, user, connection.id, body) }, { status: 201 }),
);

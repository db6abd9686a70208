import { json, route } from "@/lib/api/route";
import { createView, listViews } from "@/lib/views/server/views";
import { saveViewSchema } from "@/lib/views/validation";

// GET /api/views – the member's saved views of the pages they may read (verification list, case queue).
export const GET = route({ permission: "signed_in" }, async ({ db, user }) => json({ views: await listViews(db, user) }));

// POST /api/views – save the list's or queue's query string under a name (unique per member and page, 409 `name`).
export const POST = route({ permission: "signed_in", body: saveViewSchema }, async ({ db, user, body }) =>
  json({ view: await createView(db, user, body) }, { status: 201 }),
);

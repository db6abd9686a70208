import { json, route } from "@/lib/api/route";
import { markRead } from "@/lib/notifications/server/inbox";
import { markReadSchema } from "@/lib/notifications/validation";

// POST /api/notifications/read – {ids} or {all: true}: marks the caller's own notifications read; answers the
// count marked and the unread left.
export const POST = route({ permission: "signed_in", body: markReadSchema }, async ({ db, user, grants, body }) =>
  json(await markRead(db, user.id, grants, body)),
);

import { json, route } from "@/lib/api/route";
import { listNotifications } from "@/lib/notifications/server/inbox";

// GET /api/notifications – the caller's latest 50 notifications (kind, case, connection, time, read) and their unread
// count, of the connections they may use.
export const GET = route({ permission: "signed_in" }, async ({ db, user, grants }) => json(await listNotifications(db, user.id, grants)));

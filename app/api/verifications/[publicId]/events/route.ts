import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { publicIdSchema } from "@/lib/verifications/validation";
import { listVerificationEvents } from "@/lib/webhooks/server/store";

// GET /api/verifications/:publicId/events – the verification's event history as the service's webhooks
// told it (the dashboard's own store), those filed under the request's connection. Polled by the open detail page, so, like the change feed, it is
// not put on the audit trail: opening the detail (verification.view) is.
export const GET = route(
  { permission: "verifications.read", params: z.object({ publicId: publicIdSchema }) },
  async ({ db, connection, params: { publicId } }) => json({ events: await listVerificationEvents(db, publicId, connection.id) }),
);

import { json, route } from "@/lib/api/route";
import { deliveryHealth } from "@/lib/webhooks/server/health";
import type { DeliveryHealth } from "@/lib/webhooks/types";

export const dynamic = "force-dynamic";

// GET /api/webhooks/health – how the service's event deliveries fare for the connection (the last day's counts by
// state, what is failing, the latest 20): states and counts only. `integrations.manage`: the receiving address and its
// secret are the integration admins' to look after.
export const GET = route({ permission: "integrations.manage" }, async ({ db, connection }) =>
  json<DeliveryHealth>(await deliveryHealth(db, connection.id)),
);

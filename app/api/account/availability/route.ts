import { isAway, setAvailability } from "@/lib/account/server/availability";
import { json, route } from "@/lib/api/route";
import { availabilitySchema } from "@/lib/cases/routing-validation";

export const dynamic = "force-dynamic";

// GET /api/account/availability – {away}: the user menu's toggle.
export const GET = route({ permission: "signed_in" }, async ({ db, user }) => json({ away: await isAway(db, user.id) }));

// PUT /api/account/availability – {away}: the signed-in member marks themselves away (or back). Going away
// hands their open cases and alerts back to their queues unassigned (auto-assigned again when that is on).
export const PUT = route({ permission: "signed_in", body: availabilitySchema }, async ({ db, user, context, body }) =>
  json(await setAvailability(db, { actor: { id: user.id, email: user.email }, ip: context.ip, pageView: context.pageView }, body.away)),
);

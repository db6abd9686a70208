import { factorsOverview } from "@/lib/account/server/factors-overview";
import { json, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

// GET /api/account/factors – the member's second factors, recovery codes left, whether the policy requires a
// factor of them, and how they can confirm a sensitive action (the step-up dialog's choices).
export const GET = route({ permission: "signed_in", during: ["enrolment", "second_factor"] }, async ({ db, user }) =>
  json(await factorsOverview(db, user)),
);

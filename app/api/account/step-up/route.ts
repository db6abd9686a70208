import type { AuthenticationResponseJSON } from "@simplewebauthn/server";

import { json, route } from "@/lib/api/route";
import { verifyStepUp } from "@/lib/auth/server/step-up";
import { relyingParty } from "@/lib/auth/server/webauthn";
import { stepUpSchema } from "@/lib/auth/validation";

export const dynamic = "force-dynamic";

// POST /api/account/step-up {code} | {passkey} | {password} – confirms it is the member: the sign-in's second
// step for a session awaiting it, else a step-up fresh for STEP_UP_SECONDS. Wrong: 400 naming the field;
// too many tries: 429.
export const POST = route(
  { permission: "signed_in", during: ["second_factor", "enrolment"], body: stepUpSchema },
  async ({ db, request, user, context, body }) => {
    const proof = "passkey" in body ? { passkey: body.passkey as unknown as AuthenticationResponseJSON } : body;
    const { verifiedAt, until } = await verifyStepUp(db, user, proof, { context, rp: relyingParty(request) });
    return json({ verifiedAt: verifiedAt.toISOString(), until: until.toISOString() });
  },
);

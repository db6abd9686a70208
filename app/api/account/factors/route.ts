import { json, route } from "@/lib/api/route";
import { secondFactorRequired } from "@/lib/auth/permissions";
import { listFactors, recoveryCodesLeft } from "@/lib/auth/server/factors";
import { stepUpMethods } from "@/lib/auth/server/step-up";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

// GET /api/account/factors – the member's second factors, recovery codes left, whether the policy requires a
// factor of them, and how they can confirm a sensitive action (the step-up dialog's choices).
export const GET = route({ permission: "signed_in", during: ["enrolment", "second_factor"] }, async ({ user }) => {
  const db = await getDb();
  const [factors, left] = await Promise.all([listFactors(db, user.id), recoveryCodesLeft(db, user.id)]);
  return json({
    factors,
    recoveryCodesLeft: left,
    required: secondFactorRequired(config().signIn.mfaRequired, user),
    stepUpMethods: stepUpMethods(user, {
      hasApp: factors.some((factor) => factor.kind === "totp"),
      hasPasskey: factors.some((factor) => factor.kind === "passkey"),
      recoveryLeft: left,
    }),
  });
});

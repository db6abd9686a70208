import { factorNotices } from "@/lib/account/server/factor-notices";
import { removeFactor } from "@/lib/account/server/factors";
import { factorIdSchema } from "@/lib/account/validation";
import { json, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

// DELETE /api/account/factors/:id – removes one of the member's factors; a step-up first (`credentials`: a session
// in its sign-in's stages excepted, lib/auth/server/require-role.ts). The last one cannot go while the policy
// requires a factor of the member (409).
export const DELETE = route(
  { permission: "signed_in", stepUp: "credentials", params: factorIdSchema },
  async ({ db, user, context, params }) => {
    await removeFactor(db, user, params.id, { context, notices: factorNotices });
    return json({ removed: true });
  },
);

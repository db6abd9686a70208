import type { RegistrationResponseJSON } from "@simplewebauthn/server";

import { factorNotices } from "@/lib/account/server/factor-notices";
import { registerPasskey } from "@/lib/account/server/factors";
import { passkeyEnrolSchema } from "@/lib/account/validation";
import { json, route } from "@/lib/api/route";
import { relyingParty } from "@/lib/auth/server/webauthn";

export const dynamic = "force-dynamic";

// POST /api/account/factors/passkeys {label, response} – registers the passkey the browser made from the
// options above (`credential.toJSON()`), after a step-up (`credentials`); on the member's first factor the
// answer carries the recovery codes.
export const POST = route(
  { permission: "signed_in", during: ["enrolment"], stepUp: "credentials", body: passkeyEnrolSchema },
  async ({ db, request, user, context, body }) => {
    const member = { id: user.id, email: user.email, sessionId: user.sessionId };
    const input = { label: body.label, response: body.response as unknown as RegistrationResponseJSON };
    return json(await registerPasskey(db, member, input, relyingParty(request), { context, notices: factorNotices }), {
      status: 201,
    });
  },
);

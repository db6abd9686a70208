import { passkeyRegistrationOptions } from "@/lib/account/server/factors";
import { json, route } from "@/lib/api/route";
import { relyingParty } from "@/lib/auth/server/webauthn";

export const dynamic = "force-dynamic";

// POST /api/account/factors/passkeys/options – WebAuthn creation options for a new passkey (its challenge is
// kept for five minutes and works once); a step-up first (`credentials`).
export const POST = route({ permission: "signed_in", during: ["enrolment"], stepUp: "credentials" }, async ({ db, request, user }) =>
  json(
    await passkeyRegistrationOptions(
      db,
      { id: user.id, email: user.email, name: user.name, sessionId: user.sessionId },
      relyingParty(request),
    ),
  ),
);

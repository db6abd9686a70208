import { json, route } from "@/lib/api/route";
import { passkeyAuthenticationOptions } from "@/lib/auth/server/factors";
import { relyingParty } from "@/lib/auth/server/webauthn";

export const dynamic = "force-dynamic";

// POST /api/account/step-up/options – WebAuthn request options for the member's own passkeys (the second step
// of a sign-in or a step-up). No step-up itself (it is how one is given), and no way around one: it answers only a
// member who already holds a passkey, and its challenge serves only a step-up of this member in this session
// (never a registration or a sign-in: lib/auth/server/webauthn.ts `takeChallenge`).
export const POST = route({ permission: "signed_in", during: ["second_factor"] }, async ({ db, request, user }) =>
  json(
    await passkeyAuthenticationOptions(db, {
      member: { id: user.id, email: user.email, sessionId: user.sessionId },
      rp: relyingParty(request),
    }),
  ),
);

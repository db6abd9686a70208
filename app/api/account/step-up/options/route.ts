import { json, route } from "@/lib/api/route";
import { passkeyAuthenticationOptions } from "@/lib/auth/server/factors";
import { relyingParty } from "@/lib/auth/server/webauthn";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

// POST /api/account/step-up/options – WebAuthn request options for the member's own passkeys (the second step
// of a sign-in or a step-up).
export const POST = route({ permission: "signed_in", during: ["second_factor"] }, async ({ request, user }) =>
  json(
    await passkeyAuthenticationOptions(await getDb(), {
      member: { id: user.id, email: user.email, sessionId: user.sessionId },
      rp: relyingParty(request),
    }),
  ),
);

import { json, route } from "@/lib/api/route";
import { passkeyAuthenticationOptions } from "@/lib/auth/server/factors";
import { relyingParty } from "@/lib/auth/server/webauthn";

export const dynamic = "force-dynamic";

// POST /api/auth/passkey/options – request options for signing in with a passkey alone (any discoverable
// credential of this site); the answer goes to next-auth's `passkey` provider. Each answer stores a challenge, so
// a client address gets a few a minute (429 past them) and the outstanding ones are capped.
export const POST = route({ permission: "public" }, async ({ db, request, context }) =>
  json(await passkeyAuthenticationOptions(db, { rp: relyingParty(request), address: context.ip ?? "unknown" })),
);

import { json, route } from "@/lib/api/route";
import { passkeyAuthenticationOptions } from "@/lib/auth/server/factors";
import { relyingParty } from "@/lib/auth/server/webauthn";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

// POST /api/auth/passkey/options – request options for signing in with a passkey alone (any discoverable
// credential of this site); the answer goes to next-auth's `passkey` provider.
export const POST = route({ permission: "public" }, async ({ request }) =>
  json(await passkeyAuthenticationOptions(await getDb(), { rp: relyingParty(request) })),
);

import { factorNotices } from "@/lib/account/server/factor-notices";
import { confirmTotp } from "@/lib/account/server/factors";
import { factorIdSchema } from "@/lib/account/validation";
import { json, route } from "@/lib/api/route";
import { codeSchema } from "@/lib/auth/validation";

export const dynamic = "force-dynamic";

// POST /api/account/factors/totp/:id/verify {code} – confirms an authenticator app with its first code, after a
// step-up (`credentials`; the code is no step-up); on the member's first factor the answer carries the ten
// recovery codes, shown once.
export const POST = route(
  { permission: "signed_in", during: ["enrolment"], stepUp: "credentials", params: factorIdSchema, body: codeSchema },
  async ({ db, user, context, params, body }) =>
    json(
      await confirmTotp(db, { id: user.id, email: user.email, sessionId: user.sessionId }, params.id, body.code, {
        context,
        notices: factorNotices,
      }),
    ),
);

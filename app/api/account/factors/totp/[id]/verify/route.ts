import { factorNotices } from "@/lib/account/server/factor-notices";
import { json, route } from "@/lib/api/route";
import { codeSchema, factorIdSchema } from "@/lib/auth/validation";
import { confirmTotp } from "@/lib/auth/server/factors";

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

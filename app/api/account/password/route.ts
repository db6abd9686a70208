import { NextResponse } from "next/server";

import { changeOwnPassword } from "@/lib/account/server/password";
import { route } from "@/lib/api/route";
import { changePasswordSchema } from "@/lib/auth/validation";

export const dynamic = "force-dynamic";

// POST /api/account/password – the signed-in user replaces their password (required after an invitation); a
// step-up first (`credentials`: the one-time password's replacement right after its sign-in excepted). A wrong
// current password is a 400 naming `currentPassword` (WrongCurrentPasswordError).
export const POST = route(
  { permission: "signed_in", during: ["password_change"], stepUp: "credentials", body: changePasswordSchema },
  async ({ db, user: actor, context, body: input }) => {
    await changeOwnPassword(db, { actor, ip: context.ip, input });
    return new NextResponse(null, { status: 204 });
  },
);

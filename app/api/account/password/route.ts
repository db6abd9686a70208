import { NextResponse } from "next/server";

import { changeOwnPassword } from "@/lib/account/server/password";
import { route } from "@/lib/api/route";
import { changePasswordSchema } from "@/lib/auth/validation";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

export const dynamic = "force-dynamic";

// POST /api/account/password – the signed-in user replaces their password (required after an invitation); a
// step-up first (`credentials`: the one-time password's replacement right after its sign-in excepted).
export const POST = route(
  { permission: "signed_in", during: ["password_change"], stepUp: "credentials", body: changePasswordSchema },
  async ({ user: actor, context, body: input }) => {
    if (!(await changeOwnPassword(await getDb(), { actor, ip: context.ip, input }))) {
      throw new AppError("validation", "The current password is not correct.", { fields: ["currentPassword"] });
    }
    return new NextResponse(null, { status: 204 });
  },
);

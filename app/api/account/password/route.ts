import { NextResponse } from "next/server";

import { ApiError } from "@/lib/api/errors";
import { route } from "@/lib/api/route";
import { getDb } from "@/lib/db/client";
import { changeOwnPassword } from "@/lib/staff/server/staff";
import { changePasswordSchema } from "@/lib/staff/schemas";

export const dynamic = "force-dynamic";

// POST /api/account/password – the signed-in user replaces their password (required after an invitation).
export const POST = route({ allowPasswordChange: true, body: changePasswordSchema }, async ({ user: actor, context, body: input }) => {
  if (!(await changeOwnPassword(await getDb(), { actor, ip: context.ip, input }))) {
    throw new ApiError("validation", "The current password is not correct.", { fields: ["currentPassword"] });
  }
  return new NextResponse(null, { status: 204 });
});

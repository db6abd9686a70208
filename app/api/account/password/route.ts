import { NextResponse } from "next/server";

import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { clientAddress } from "@/lib/auth/address";
import { requireUser } from "@/lib/auth/require-role";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { changeOwnPassword } from "@/lib/staff";
import { changePasswordSchema } from "@/lib/validations/staff";

export const dynamic = "force-dynamic";

// POST /api/account/password – the signed-in user replaces their password (required after an invitation).
export async function POST(request: Request) {
  try {
    const actor = await requireUser(request, "analyst", { allowPasswordChange: true });
    const input = changePasswordSchema.parse(await request.json().catch(() => ({})));
    const ip = clientAddress(request.headers, config().trustedProxies);
    if (!(await changeOwnPassword(await getDb(), { actor, ip, input }))) {
      throw new ApiError("validation", "The current password is not correct.", { fields: ["currentPassword"] });
    }
    return new NextResponse(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}

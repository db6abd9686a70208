import { NextResponse } from "next/server";

import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { clientAddress } from "@/lib/auth/address";
import { requireUser } from "@/lib/auth/require-role";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { StaffEmailTakenError } from "@/lib/db/queries";
import { inviteStaff, listStaffWithSignInState } from "@/lib/staff";
import { inviteStaffSchema } from "@/lib/validations/staff";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

// GET /api/staff – every staff account, with what holds its sign-in back (admin).
export async function GET(request: Request) {
  try {
    await requireUser(request, "admin");
    return NextResponse.json({ staff: await listStaffWithSignInState(await getDb()) }, { headers: NO_STORE });
  } catch (error) {
    return toErrorResponse(error);
  }
}

// POST /api/staff – invite: creates the account and answers its one-time password, this once only (admin).
export async function POST(request: Request) {
  try {
    const actor = await requireUser(request, "admin");
    const input = inviteStaffSchema.parse(await request.json().catch(() => ({})));
    const ip = clientAddress(request.headers, config().trustedProxies);
    const { user, oneTimePassword } = await inviteStaff(await getDb(), { actor, ip, input });
    return NextResponse.json({ user, oneTimePassword }, { status: 201, headers: NO_STORE });
  } catch (error) {
    if (error instanceof StaffEmailTakenError) {
      return toErrorResponse(new ApiError("conflict", "A staff account with this email already exists.", { fields: ["email"] }));
    }
    return toErrorResponse(error);
  }
}

import { NextResponse } from "next/server";
import { z } from "zod";

import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { clientAddress } from "@/lib/auth/address";
import { requireUser } from "@/lib/auth/require-role";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { StaffNotFoundError } from "@/lib/db/queries";
import { unlockStaffSignIn } from "@/lib/staff";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({ id: z.uuid() });

// POST /api/staff/:id/unlock – lift every sign-in lock on the account and its slow-down (admin).
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const actor = await requireUser(request, "admin");
    const { id } = paramsSchema.parse(await context.params);
    const ip = clientAddress(request.headers, config().trustedProxies);
    const signIn = await unlockStaffSignIn(await getDb(), { actor, ip, id });
    return NextResponse.json({ signIn }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof StaffNotFoundError) return toErrorResponse(new ApiError("not_found"));
    return toErrorResponse(error);
  }
}

import { NextResponse } from "next/server";
import { z } from "zod";

import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { clientAddress } from "@/lib/auth/address";
import { requireUser } from "@/lib/auth/require-role";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { LastAdminError, StaffNotFoundError } from "@/lib/db/queries";
import { changeStaff } from "@/lib/staff";
import { updateStaffSchema } from "@/lib/validations/staff";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({ id: z.uuid() });

// PATCH /api/staff/:id – change role and/or disable or re-enable an account (admin).
export async function PATCH(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const actor = await requireUser(request, "admin");
    const { id } = paramsSchema.parse(await context.params);
    const change = updateStaffSchema.parse(await request.json().catch(() => ({})));
    const ip = clientAddress(request.headers, config().trustedProxies);
    const user = await changeStaff(await getDb(), { actor, ip, id, change });
    return NextResponse.json({ user }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof LastAdminError) {
      return toErrorResponse(new ApiError("conflict", "The last active admin can be neither demoted nor disabled."));
    }
    if (error instanceof StaffNotFoundError) return toErrorResponse(new ApiError("not_found"));
    return toErrorResponse(error);
  }
}

import { NextResponse } from "next/server";

import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { getDb } from "@/lib/db/client";
import { isPublicId } from "@/lib/validations/verifications";
import { listVerificationEvents } from "@/lib/webhooks/store";

// GET /api/verifications/[publicId]/events – the verification's event history as the service's webhooks
// told it (the dashboard's own store). Polled by the open detail page, so, like the change feed, it is
// not put on the audit trail: opening the detail (verification.view) is.
export async function GET(request: Request, { params }: { params: Promise<{ publicId: string }> }) {
  try {
    await requireUser(request, "analyst");
    const { publicId } = await params;
    if (!isPublicId(publicId)) throw new ApiError("validation", "publicId: not a verification id.", { fields: ["publicId"] });
    const events = await listVerificationEvents(await getDb(), publicId);
    return NextResponse.json({ events }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}

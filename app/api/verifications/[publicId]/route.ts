import { NextResponse } from "next/server";

import { toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { getDb } from "@/lib/db/client";
import { auditContext, audited } from "@/lib/verifications/audit";
import { assertPublicId, getVerificationDetail } from "@/lib/verifications/detail";
import { subjectCpfHashOf } from "@/lib/verifications/known";

// GET /api/verifications/:publicId – one verification. An id that could change the upstream path
// (`/`, `..`, `%2F`…) is a 400 before any call; the service's 404 stays a plain 404.
export async function GET(request: Request, { params }: { params: Promise<{ publicId: string }> }) {
  try {
    const user = await requireUser(request, "analyst");
    const { publicId } = await params;
    assertPublicId(publicId);
    const data = await audited(
      auditContext(user, request.headers),
      {
        action: "verification.view",
        target: { type: "verification", id: publicId },
        subjectCpfHashOf: async (result) => subjectCpfHashOf(await getDb(), result.verification),
      },
      () => getVerificationDetail(publicId),
    );
    return NextResponse.json(data, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}

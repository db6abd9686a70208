import { NextResponse } from "next/server";

import { toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { auditContext, audited } from "@/lib/verifications/audit";
import { assertPublicId } from "@/lib/verifications/detail";
import { issueMediaTokens } from "@/lib/verifications/media";

// GET /api/verifications/:publicId/media – per file key, a sealed token bound to this user (its
// /api/media address), the media type and the expiry; or why there is no file. Never the signed URL.
export async function GET(request: Request, { params }: { params: Promise<{ publicId: string }> }) {
  try {
    const user = await requireUser(request, "analyst");
    const { publicId } = await params;
    assertPublicId(publicId);
    const data = await audited(
      auditContext(user, request.headers),
      {
        action: "verification.media",
        target: { type: "verification", id: publicId },
        detailsOf: (media) => ({
          tokens: media.items.filter((item) => item.available).length,
          missing: media.items.filter((item) => !item.available).length,
        }),
      },
      () => issueMediaTokens(publicId, user),
    );
    return NextResponse.json(data, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}

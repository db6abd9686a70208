import { NextResponse } from "next/server";

import { toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { auditContext, audited } from "@/lib/verifications/audit";
import { MediaTokenRefused, openImage } from "@/lib/verifications/media";

/** Headers of every image answer: never cached, never a referrer, never sniffed into something else. */
const IMAGE_HEADERS = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Content-Disposition": "inline",
  // Opened on its own, the answer can do nothing but be an image.
  "Content-Security-Policy": "default-src 'none'; sandbox",
} as const;

/** A sealed token is a few hundred characters; anything much longer is not one. */
const MAX_TOKEN_LENGTH = 4096;

function refused(problem: MediaTokenRefused["problem"]) {
  // Another user's token and a forged one get the same answer: neither says whose it was.
  const body =
    problem === "expired"
      ? { error: { code: "media_token_expired", message: "This image link has expired. Load the images again.", retryable: true } }
      : { error: { code: "forbidden", message: "This image link is not valid for you." } };
  return NextResponse.json(body, {
    status: problem === "expired" ? 410 : 403,
    headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}

// GET /api/media/:token – opens a sealed media token for the signed-in user, asks the service for a
// fresh signed URL of that one file and streams the image (no redirects followed, size capped, image
// types only). The signed URL never leaves this server.
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  try {
    const user = await requireUser(request, "analyst");
    const { token } = await params;
    if (token.length > MAX_TOKEN_LENGTH) return refused("invalid");
    const image = await audited(
      auditContext(user, request.headers),
      {
        action: "verification.image",
        targetOf: (opened) => ({ type: "verification", id: opened.claim.publicId }),
        detailsOf: (opened) => ({ file: opened.claim.fileKey }),
        discard: (opened) => void opened.body.cancel().catch(() => undefined),
      },
      () => openImage(token, user),
    );
    const headers: Record<string, string> = { ...IMAGE_HEADERS, "Content-Type": image.contentType };
    if (image.contentLength !== undefined) headers["Content-Length"] = String(image.contentLength);
    return new Response(image.body, { status: 200, headers });
  } catch (error) {
    if (error instanceof MediaTokenRefused) return refused(error.problem);
    return toErrorResponse(error);
  }
}

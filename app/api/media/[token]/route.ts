import { z } from "zod";

import { route } from "@/lib/api/route";
import { isReadAhead } from "@/lib/shared/api-client/background";
import { MediaTokenRefused, viewImage } from "@/lib/verifications/server/media";
import { MAX_MEDIA_TOKEN_LENGTH } from "@/lib/verifications/server/media-token";

/**
 * Headers of every image answer: never cached, never a referrer, never sniffed into something else. Under Next,
 * next.config.mjs's headers for /api/media win where they name the same header; both say the same.
 */
const IMAGE_HEADERS = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Content-Disposition": "inline",
  // Opened on its own, the answer can do nothing but be an image.
  "Content-Security-Policy": "default-src 'none'; sandbox",
} as const;

// GET /api/media/:token – opens a sealed media token for the signed-in user and the signed URL of that one file
// sealed inside it (or a fresh one from the service) and streams the image (no redirects followed, size capped, image
// types only), within the member's media quota. The signed URL never leaves this server readable. An image of the queue's
// next case read ahead into the browser's memory (X-KYC-Ahead) is recorded as read, not seen (`ahead: "read"`).
export const GET = route(
  { permission: "media.read", sideEffects: true, params: z.object({ token: z.string() }) },
  async ({ request, user, context, params: { token } }) => {
    if (token.length > MAX_MEDIA_TOKEN_LENGTH) throw new MediaTokenRefused("invalid");
    const image = await viewImage(context, token, user, {}, { ahead: isReadAhead(request.headers) });
    const headers: Record<string, string> = { ...IMAGE_HEADERS, "Content-Type": image.contentType };
    if (image.contentLength !== undefined) headers["Content-Length"] = String(image.contentLength);
    return new Response(image.body, { status: 200, headers });
  },
);

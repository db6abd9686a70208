import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { isReadAhead } from "@/lib/shared/api-client/background";
import { viewVerificationMedia } from "@/lib/verifications/server/media";
import { publicIdSchema } from "@/lib/verifications/validation";

// GET /api/verifications/:publicId/media – per file key, a sealed token bound to this user (its
// /api/media address), the media type and the expiry; or why there is no file. Never the signed URL. Tokens of
// the queue's next case, asked for before the member opens it (X-KYC-Ahead), are recorded as read ahead.
export const GET = route(
  { permission: "media.read", params: z.object({ publicId: publicIdSchema }) },
  async ({ request, user, context, params: { publicId } }) =>
    json(await viewVerificationMedia(context, publicId, user, { ahead: isReadAhead(request.headers) })),
);

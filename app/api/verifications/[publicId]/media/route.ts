import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { audited } from "@/lib/audit-trail/server";
import { publicIdSchema } from "@/lib/verifications/schemas";
import { issueMediaTokens } from "@/lib/verifications/server/media";

// GET /api/verifications/:publicId/media – per file key, a sealed token bound to this user (its
// /api/media address), the media type and the expiry; or why there is no file. Never the signed URL.
export const GET = route({ permission: "media.read", params: z.object({ publicId: publicIdSchema }) }, async ({ user, context, params: { publicId } }) => {
  const data = await audited(
    context,
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
  return json(data);
});

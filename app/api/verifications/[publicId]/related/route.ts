import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { viewRelatedVerifications } from "@/lib/verifications/server/related";
import { publicIdSchema } from "@/lib/verifications/validation";

// GET /api/verifications/:publicId/related – the same person's other verifications, matched by the CPF's keyed
// hash in the search index (`basis: "unknown"` when the index does not know this one's CPF). Audited.
export const GET = route(
  { permission: "verifications.read", params: z.object({ publicId: publicIdSchema }) },
  async ({ user, context, params: { publicId } }) => json(await viewRelatedVerifications(context, publicId, user)),
);

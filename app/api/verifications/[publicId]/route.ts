import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { viewVerification } from "@/lib/verifications/server/detail";
import { publicIdSchema } from "@/lib/verifications/validation";

// GET /api/verifications/:publicId – one verification. An id that could change the upstream path
// (`/`, `..`, `%2F`…) is a 400 before any call; the service's 404 stays a plain 404.
export const GET = route(
  { permission: "verifications.read", params: z.object({ publicId: publicIdSchema }) },
  async ({ user, context, params: { publicId } }) => json(await viewVerification(context, publicId, user)),
);

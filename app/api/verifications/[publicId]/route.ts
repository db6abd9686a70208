import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { audited } from "@/lib/audit-trail";
import { getDb } from "@/lib/db/client";
import { publicIdSchema } from "@/lib/validations/verifications-schema";
import { getVerificationDetail } from "@/lib/verifications/detail";
import { subjectCpfHashOf } from "@/lib/verifications/known";

// GET /api/verifications/:publicId – one verification. An id that could change the upstream path
// (`/`, `..`, `%2F`…) is a 400 before any call; the service's 404 stays a plain 404.
export const GET = route({ params: z.object({ publicId: publicIdSchema }) }, async ({ context, params: { publicId } }) => {
  const data = await audited(
    context,
    {
      action: "verification.view",
      target: { type: "verification", id: publicId },
      // Tagged with the person's CPF hash when known here, so the audit page's CPF search finds the view.
      subjectCpfHashOf: async (result) => subjectCpfHashOf(await getDb(), result.verification),
    },
    () => getVerificationDetail(publicId),
  );
  return json(data);
});

import { z } from "zod";

import { ApiError } from "@/lib/api/errors";
import { json, route } from "@/lib/api/route";
import { audited } from "@/lib/audit-trail";
import { getCase } from "@/lib/cases/store";
import { getDb } from "@/lib/db/client";
import { publicIdSchema } from "@/lib/validations/verifications";

// GET /api/cases/:publicId – one case: owner, notes, outcome, confirmation, timeline, neighbours. 404 when none.
export const GET = route({ params: z.object({ publicId: publicIdSchema }) }, async ({ context, params: { publicId } }) => {
  const data = await audited(context, { action: "case.view", target: { type: "verification", id: publicId } }, async () => {
    const found = await getCase(await getDb(), publicId);
    if (!found) throw new ApiError("not_found", "No case exists for this verification.");
    return { case: found };
  });
  return json(data);
});

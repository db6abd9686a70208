import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { audited } from "@/lib/audit-trail/server";
import { readTakeSettings } from "@/lib/cases/server/case-settings";
import { getCase } from "@/lib/cases/server/detail";
import { caseContextSchema } from "@/lib/cases/validation";
import { markCasesHandled } from "@/lib/notifications/server/handled";
import { isReadAhead } from "@/lib/shared/api-client/background";
import { publicIdSchema } from "@/lib/verifications/validation";

// GET /api/cases/:publicId – one case: owner, notes, outcome, confirmation, timeline, neighbours; `case: null`
// when the verification has none (most verifications need no person: not an error, so no 404 on every detail);
// `takeMode`, the team's setting for taking an unassigned case (lib/cases/take-mode.ts).
// `?queue=&sort=&flag=…` (the queue it was opened from) picks its next and previous. Read ahead of the member (the
// queue's next case, X-KYC-Ahead), it is recorded as such (`ahead: "read"`): the member has not opened it yet.
export const GET = route(
  { permission: "cases.read", params: z.object({ publicId: publicIdSchema }), query: caseContextSchema },
  async ({ db, request, user, context, connection, params: { publicId }, query }) => {
    const data = await audited(
      context,
      {
        action: "case.view",
        target: { type: "verification", id: publicId },
        details: isReadAhead(request.headers) ? { ahead: "read" } : undefined,
      },
      async () => ({ case: await getCase(db, connection.id, publicId, query, user.id), takeMode: (await readTakeSettings(db)).takeMode }),
    );
    // Opened by the member (not read ahead): what they were told of this case is read (issue 32).
    if (data.case && !isReadAhead(request.headers)) await markCasesHandled(db, [publicId], { userId: user.id });
    return json(data);
  },
);

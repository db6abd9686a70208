import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { auditedAction } from "@/lib/audit-trail/server";
import { createVerification, parseCreateVerification } from "@/lib/verifications/server/create";
import { filtersQuerySchema } from "@/lib/verifications/server/input";
import { creationCpfHash } from "@/lib/verifications/server/known";
import { viewVerificationList } from "@/lib/verifications/server/list-view";

// GET /api/verifications – the list. Only status, flow, journey, from, to, per_page and page are
// accepted; anything else is a 400 naming it, before any upstream call. Masked for a member without
// personal_data.unmasked.
export const GET = route(
  { permission: "verifications.read", query: filtersQuerySchema, repeatable: ["status"] },
  async ({ user, context, query }) => json(await viewVerificationList(context, user, query)),
);

// POST /api/verifications – create a verification. The body is the form's strict parser:
// `integration_origin_public_id` (or any other unknown field) is refused by name before the intent is
// recorded, and without the intent on the trail nothing is sent upstream. The connection's flows decide the flow.
export const POST = route({ permission: "verifications.create", body: z.unknown() }, async ({ context, connection, body }) => {
  const input = parseCreateVerification(body, connection.row.flows);
  const data = await auditedAction(
    context,
    {
      action: "verification.create",
      targetOf: (result) => (result.created.publicId ? { type: "verification", id: result.created.publicId } : undefined),
      // The typed CPF's keyed hash: the audit page's CPF search finds this creation.
      subjectCpfHash: creationCpfHash(input),
    },
    () => createVerification(input),
  );
  return json(data, { status: 201 });
});

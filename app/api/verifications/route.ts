import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { audited, auditedAction } from "@/lib/audit-trail/server";
import { getDb } from "@/lib/db/client";
import { parseVerificationFilters } from "@/lib/verifications/rules";
import { listDetails } from "@/lib/verifications/server/audit-details";
import { createVerification, parseCreateVerification } from "@/lib/verifications/server/create";
import { enrichList } from "@/lib/verifications/server/enrich";
import { inputError } from "@/lib/verifications/server/input";
import { creationCpfHash } from "@/lib/verifications/server/known";
import { listVerifications } from "@/lib/verifications/server/list";

// GET /api/verifications – the list. Only status, flow, journey, from, to, per_page and page are
// accepted; anything else is a 400 naming it, before any upstream call.
export const GET = route({ permission: "verifications.read" }, async ({ request, context }) => {
  const parsed = parseVerificationFilters(new URL(request.url).searchParams);
  if (!parsed.ok) throw inputError(parsed.problems);
  const { filters } = parsed;
  const data = await audited(
    context,
    { action: "verification.list", details: listDetails(filters), detailsOf: (list) => ({ count: list.items.length }) },
    async () => enrichList(await getDb(), await listVerifications(filters)),
  );
  return json(data);
});

// POST /api/verifications – create a verification. The body is the form's strict parser:
// `integration_origin_public_id` (or any other unknown field) is refused by name before the intent is
// recorded, and without the intent on the trail nothing is sent upstream.
export const POST = route({ permission: "verifications.create", body: z.unknown() }, async ({ context, body }) => {
  const input = parseCreateVerification(body);
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

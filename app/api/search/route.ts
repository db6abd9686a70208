import { json, route } from "@/lib/api/route";
import { auditableDetail, audited } from "@/lib/audit-trail/server";
import { hasPermission } from "@/lib/auth/permissions";
import { searchSchema } from "@/lib/cases/schemas";
import { searchAnswer, searchVerifications } from "@/lib/cases/server/search";
import { getDb } from "@/lib/db/client";

// POST /api/search – {ref_id} or {cpf}. The CPF travels in this body only (never a URL) and is matched by
// its keyed hash; on the trail it is masked plus the same hash, so an auditor can find the search. An empty
// answer says what the index can find and whether the member may run a CPF lookup instead.
export const POST = route({ permission: "verifications.read", body: searchSchema }, async ({ context, user, body }) => {
  const byCpf = "cpf" in body;
  const hits = await audited(
    context,
    {
      action: "search.verification",
      target: byCpf ? { type: "cpf", cpf: body.cpf } : undefined,
      details: byCpf ? { by: "cpf" } : { by: "ref_id", refId: auditableDetail(body.ref_id) },
      detailsOf: (found) => ({ count: found.length }),
    },
    async () => searchVerifications(await getDb(), body),
  );
  return json(searchAnswer(body, hits, { mayLookUpCpf: hasPermission(user, "lookups.run") }));
});

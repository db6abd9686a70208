import { json, route } from "@/lib/api/route";
import { auditableDetail, audited } from "@/lib/audit-trail/server";
import { hasPermission } from "@/lib/auth/permissions";
import { searchAnswer, searchVerifications } from "@/lib/cases/server/search";
import { searchSchema } from "@/lib/cases/validation";
import { consumeQuota } from "@/lib/db/quotas";

// POST /api/search – {ref_id} or {cpf}. The CPF travels in this body only (never a URL) and is matched by
// its keyed hash; on the trail it is masked plus the same hash, so an auditor can find the search. An empty
// answer says what the index can find and whether the member may run a CPF lookup instead. A CPF search finds
// only that exact CPF's verifications (hit or no hit, never a list to walk); a member who sees CPFs masked spends
// the CPF-search quota (a mask leaves 1,000 candidates to try), refused as 429 and on the trail as denied.
export const POST = route({ permission: "verifications.read", body: searchSchema }, async ({ db, context, user, body, connection }) => {
  const byCpf = "cpf" in body;
  const quotaOf = byCpf && !hasPermission(user, "personal_data.unmasked") ? user.id : null;
  const hits = await audited(
    context,
    {
      action: "search.verification",
      target: byCpf ? { type: "cpf", cpf: body.cpf } : undefined,
      details: byCpf ? { by: "cpf" } : { by: "ref_id", refId: auditableDetail(body.ref_id) },
      detailsOf: (found) => ({ count: found.length }),
    },
    async () => {
      if (quotaOf) await consumeQuota(db, "cpf_search", quotaOf);
      return searchVerifications(db, body, connection.id);
    },
  );
  return json(searchAnswer(body, hits, { mayLookUpCpf: hasPermission(user, "lookups.run") }));
});

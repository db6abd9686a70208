import { json, route } from "@/lib/api/route";
import { auditableDetail, audited } from "@/lib/audit-trail/server";
import { searchSchema } from "@/lib/cases/schemas";
import { searchVerifications } from "@/lib/cases/server/search";
import { getDb } from "@/lib/db/client";

// POST /api/search – {ref_id} or {cpf}. The CPF travels in this body only (never a URL) and is matched by
// its keyed hash; on the trail it is masked plus the same hash, so an auditor can find the search.
export const POST = route({ permission: "verifications.read", body: searchSchema }, async ({ context, body }) => {
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
  return json({ hits });
});

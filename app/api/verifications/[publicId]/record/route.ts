import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { runRecordLookup } from "@/lib/lookups/server/record";
import type { RecordLookupResponse } from "@/lib/lookups/types";
import { recordLookupSchema } from "@/lib/lookups/validation";
import { partnersClient } from "@/lib/upstream/partners";
import { readVerification } from "@/lib/verifications/server/detail";
import { verificationCpf } from "@/lib/verifications/server/document-cpf";
import { publicIdSchema } from "@/lib/verifications/validation";

// POST /api/verifications/:publicId/record {purpose, sources, cpf?} – the person's federal revenue record and CPF
// enrichment for this verification's document, for the case page's comparison. The lookups' own permission and
// quota: each source is one manual lookup (lib/lookups/server/record.ts), after the intent is on the trail. The CPF
// is read on the server (the address holds only the verification's id); typed in the body only where the service
// shows the document masked, and then it must match it (400 naming `cpf`).
export const POST = route(
  // The record is of the person behind a verification: whoever asks must be able to open it too.
  {
    permission: "lookups.run",
    alsoNeeds: ["verifications.read"],
    params: z.object({ publicId: publicIdSchema }),
    body: recordLookupSchema,
  },
  async ({ db, context, user, params: { publicId }, body: { purpose, sources, cpf } }) => {
    const { quotas, displayTimeZone: timeZone } = config();
    const cpfOf = async () => verificationCpf(db, await readVerification(context, publicId), cpf, "cpf");
    const lookup = { publicId, purpose, sources, cpfOf, limits: quotas.lookup, timeZone };
    return json<RecordLookupResponse>(await runRecordLookup(db, partnersClient(), context, user, lookup));
  },
);

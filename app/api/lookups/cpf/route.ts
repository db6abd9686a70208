import { json, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { lookupAsSeenBy, runCpfLookup } from "@/lib/lookups/server/lookups";
import type { CpfLookupResponse } from "@/lib/lookups/types";
import { cpfLookupSchema } from "@/lib/lookups/validation";
import { partnersClient } from "@/lib/upstream/partners";

// POST /api/lookups/cpf – one manual CPF lookup (federal revenue record or enrichment), limited per user and
// audited. The CPF only ever travels in this body: never in a dashboard URL, where logs and history would keep
// it. A purpose the trail would refuse (a CPF, an address, a key) is a 400 naming `purpose` before any call. A member
// without `personal_data.unmasked` gets the record masked, like every other answer carrying the person.
export const POST = route(
  { permission: "lookups.run", body: cpfLookupSchema },
  async ({ db, context, user, body: { cpf, source, purpose } }) => {
    const { quotas, displayTimeZone: timeZone } = config();
    const limits = quotas.lookup;
    const result = await runCpfLookup(db, partnersClient(), context, { cpf, source, purpose, limits, timeZone });
    return json<CpfLookupResponse>(lookupAsSeenBy(user, result));
  },
);

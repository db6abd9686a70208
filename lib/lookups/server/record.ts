import "server-only";

import { auditedAction, type RequestContext } from "@/lib/audit-trail/server";
import type { PermissionHolder } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import type { RecordLookupResponse } from "@/lib/lookups/types";
import type { LookupSource } from "@/lib/lookups/validation";
import type { PartnersClient } from "@/lib/upstream/partners";

import { lookupAsSeenBy, runCpfLookup, type LookupLimits } from "./lookups";

/*
 * The person's records beside a verification's document (the case page's comparison): the intent on the trail
 * first (`lookup.verification_record`, on the verification, with the purpose), then the CPF read on the server
 * (`cpfOf`: the browser never holds it for this), then one manual lookup per source through runCpfLookup, so each
 * is counted in the member's lookup quota and recorded exactly as a lookup typed on the lookup page. Nothing is
 * kept beyond what those lookups keep: the records go back to the member, masked as they may see them.
 */

export interface RecordLookup extends LookupLimits {
  publicId: string;
  purpose: string;
  sources: readonly LookupSource[];
  /** The verification's CPF (11 digits), read on the server once the intent is recorded. */
  cpfOf: () => Promise<string>;
}

export async function runRecordLookup(
  db: Database,
  client: PartnersClient,
  context: RequestContext,
  viewer: PermissionHolder,
  { publicId, purpose, sources, cpfOf, limits, timeZone }: RecordLookup,
): Promise<RecordLookupResponse> {
  return auditedAction(
    context,
    {
      action: "lookup.verification_record",
      target: { type: "verification", id: publicId },
      purpose,
      details: { sources: sources.join(",") },
    },
    async () => {
      const cpf = await cpfOf();
      const results: RecordLookupResponse["results"] = [];
      // One after the other: the quota counts each, and a refusal stops before the next source is called.
      for (const source of sources) {
        results.push(lookupAsSeenBy(viewer, await runCpfLookup(db, client, context, { cpf, source, purpose, limits, timeZone })));
      }
      return { results };
    },
  );
}

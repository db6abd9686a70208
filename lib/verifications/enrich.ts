import "server-only";

import type { Database } from "@/lib/db/client";

import { knownVerificationsOf } from "./known";
import type { ListEnrichment, VerificationListResponse } from "./types";

/*
 * The list's columns that do not come from the service: ref_id (known_verifications) and the case's age and
 * owner (case work). One server-side function, called by the list page, GET /api/verifications and the
 * export, so all three show the same thing.
 */

export interface CaseColumns {
  /** ISO 8601: when the verification's review case was opened. */
  openedAt: string | null;
  /** Display name or email of the case's assignee. */
  owner: string | null;
}

/**
 * SEAM (case work, lib/cases/): case age and owner of each verification. Case work is not merged on this
 * branch yet, so this answers nothing and the columns show "—". At merge, read the open case of each public
 * id from lib/cases/ here (one query for the page, `where public_id in (…)`).
 */
export async function caseColumnsOf(_db: Database, _publicIds: string[]): Promise<Map<string, CaseColumns>> {
  return new Map();
}

export async function enrichList(db: Database, list: VerificationListResponse): Promise<VerificationListResponse> {
  const ids = list.items.map((item) => item.publicId);
  const [known, cases] = await Promise.all([knownVerificationsOf(db, ids), caseColumnsOf(db, ids)]);
  const enrichment: Record<string, ListEnrichment> = {};
  for (const id of ids) {
    const refId = known.get(id)?.refId ?? null;
    const kase = cases.get(id);
    if (refId === null && !kase) continue;
    enrichment[id] = { refId, caseOpenedAt: kase?.openedAt ?? null, caseOwner: kase?.owner ?? null };
  }
  return { ...list, enrichment };
}

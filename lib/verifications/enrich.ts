import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import type { Database } from "@/lib/db/client";
import { cases, staffUsers } from "@/lib/db/schema";

import { knownVerificationsOf } from "./known";
import type { ListEnrichment, VerificationListResponse } from "./types";

/*
 * The list's columns that do not come from the service: ref_id (case work's verification index) and the
 * open case's age and owner (case work's cases). One server-side function, called by the list page, GET /api/verifications and the
 * export, so all three show the same thing.
 */

export interface CaseColumns {
  /** ISO 8601: when the verification's review case was opened. */
  openedAt: string | null;
  /** Display name or email of the case's assignee. */
  owner: string | null;
}

/** Case age and owner of each verification with an open case (case work's `cases` table), one query per page. */
export async function caseColumnsOf(db: Database, publicIds: string[]): Promise<Map<string, CaseColumns>> {
  if (publicIds.length === 0) return new Map();
  const rows = await db
    .select({ publicId: cases.publicId, openedAt: cases.openedAt, ownerName: staffUsers.name, ownerEmail: staffUsers.email })
    .from(cases)
    .leftJoin(staffUsers, eq(staffUsers.id, cases.assigneeId))
    .where(and(inArray(cases.publicId, publicIds), eq(cases.status, "open")));
  return new Map(
    rows.map((row) => [row.publicId, { openedAt: row.openedAt.toISOString(), owner: row.ownerName || row.ownerEmail || null }]),
  );
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

import "server-only";

import { and, eq, isNotNull, or, sql } from "drizzle-orm";

import { staffUsers } from "@/lib/auth/server/tables";
import { cases, verificationIndex } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import type { ListEnrichment, VerificationListResponse } from "@/lib/verifications/types";

/*
 * The list's columns that do not come from the service: ref_id (case work's verification index) and the
 * open case's age and owner (case work's cases). One server-side function, called by the list page,
 * GET /api/verifications and the export, so all three show the same thing.
 *
 * Every list view runs this, so it is one statement per page of rows (the page's ids unnested and joined
 * to both tables), prepared once per database handle: no query building and one round trip per view.
 */

function prepareEnrichment(db: Database) {
  const id = sql<string>`ids.public_id`;
  return db
    .select({
      publicId: id,
      refId: verificationIndex.refId,
      openedAt: cases.openedAt,
      ownerName: staffUsers.name,
      ownerEmail: staffUsers.email,
    })
    .from(sql`unnest(${sql.placeholder("ids")}::text[]) as ids(public_id)`)
    .leftJoin(verificationIndex, eq(verificationIndex.publicId, id))
    .leftJoin(cases, and(eq(cases.publicId, id), eq(cases.status, "open")))
    .leftJoin(staffUsers, eq(staffUsers.id, cases.assigneeId))
    .where(or(isNotNull(verificationIndex.refId), isNotNull(cases.id)))
    .prepare("list_enrichment");
}

const prepared = new WeakMap<Database, ReturnType<typeof prepareEnrichment>>();

/** ref_id, and the open case's age and owner, of each of these verifications that has any. */
export async function enrichmentOf(db: Database, publicIds: string[]): Promise<Record<string, ListEnrichment>> {
  const enrichment: Record<string, ListEnrichment> = {};
  if (publicIds.length === 0) return enrichment;
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = prepareEnrichment(db)));
  for (const row of await query.execute({ ids: publicIds })) {
    enrichment[row.publicId] = {
      refId: row.refId,
      caseOpenedAt: row.openedAt?.toISOString() ?? null,
      caseOwner: row.openedAt ? row.ownerName || row.ownerEmail || null : null,
    };
  }
  return enrichment;
}

/** The list with its enrichment, read by `read` (the list view's cache, ./enrichment-cache.ts) or from `db`. */
export async function enrichList(
  db: Database,
  list: VerificationListResponse,
  read: (publicIds: string[]) => Promise<Record<string, ListEnrichment>> = (publicIds) => enrichmentOf(db, publicIds),
): Promise<VerificationListResponse> {
  return { ...list, enrichment: await read(list.items.map((item) => item.publicId)) };
}

import "server-only";

import { audited, type RequestContext } from "@/lib/audit-trail/server";
import type { PermissionHolder } from "@/lib/auth/permissions";
import { getDatabaseHandle } from "@/lib/db/client";
import type { VerificationFilters } from "@/lib/upstream/model/verification-query";
import type { VerificationListResponse } from "@/lib/verifications/types";

import { listDetails } from "./audit-details";
import { enrichList } from "./enrich";
import { enrichmentCacheFor } from "./enrichment-cache";
import { learnFromListPage } from "./known";
import { listVerifications, type VerificationDeps } from "./list";
import { asSeenBy } from "./personal-data";

/**
 * The list as a member reads it, for both its page (first render) and GET /api/verifications: an audited read
 * (`verification.list`), enriched with what this dashboard knows, then masked for a member without
 * `personal_data.unmasked` before it leaves (the page's hydrated cache included). A page the service sent
 * unmasked teaches the search index its CPFs (as keyed hashes), so the top bar's CPF search finds them.
 */
export async function viewVerificationList(
  context: RequestContext,
  viewer: PermissionHolder,
  filters: VerificationFilters,
  deps: VerificationDeps = {},
): Promise<VerificationListResponse> {
  const list = await audited(
    context,
    { action: "verification.list", details: listDetails(filters), detailsOf: (result) => ({ count: result.items.length }) },
    async () => {
      const handle = await getDatabaseHandle();
      const list = await listVerifications(filters, deps);
      const [enriched] = await Promise.all([
        enrichList(handle.db, list, enrichmentCacheFor(handle).read),
        learnFromListPage(handle.db, list.items),
      ]);
      return enriched;
    },
  );
  return { ...list, items: list.items.map((item) => asSeenBy(viewer, item)) };
}

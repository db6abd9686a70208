import "server-only";

import pLimit from "p-limit";

import { audited, type RequestContext } from "@/lib/audit-trail/server";
import type { PermissionHolder } from "@/lib/auth/permissions";
import { indexedCpfHash, samePersonRows, type SamePersonRow } from "@/lib/cases/server/related";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import type { Verification } from "@/lib/upstream/model/verification";
import type { RelatedVerification, RelatedVerificationsResponse } from "@/lib/verifications/types";

import { assertPublicId, viewVerification } from "./detail";
import type { VerificationDeps } from "./list";

/*
 * The same person's other verifications (GET /api/verifications/:publicId/related): those the search index holds
 * under this verification's CPF hash (lib/cases/server/related.ts). A verification with a case is described from
 * the case row (no call); the others are read from the service through the one audited detail read
 * (viewVerification: each is a `verification.view` on the trail, masked as the member may see it), at most
 * MAX_READS of them, a few at a time. The answer itself is audited as `verification.related`.
 */

const MAX_READS = 10;
const READS_AT_ONCE = 3;

function fromCase(row: SamePersonRow): RelatedVerification {
  return {
    publicId: row.publicId,
    ...(row.createdAt ? { createdAt: row.createdAt.toISOString() } : {}),
    ...(row.upstreamStatus ? { status: row.upstreamStatus } : {}),
    ...(row.recommendation ? { outcome: { recommendation: row.recommendation, state: row.outcomeState } } : {}),
    ...(row.caseStatus ? { caseStatus: row.caseStatus } : {}),
    sameDocument: true,
  };
}

function withRead(related: RelatedVerification, verification: Verification | undefined): RelatedVerification {
  if (!verification) return related;
  return {
    ...related,
    ...(verification.createdAt ? { createdAt: verification.createdAt } : {}),
    ...(verification.status ? { status: verification.status } : {}),
  };
}

export async function viewRelatedVerifications(
  context: RequestContext,
  publicId: string,
  viewer: PermissionHolder,
  deps: VerificationDeps = {},
): Promise<RelatedVerificationsResponse> {
  assertPublicId(publicId);
  const db = await getDb();
  let hash: string | null = null;
  return audited(
    context,
    {
      action: "verification.related",
      target: { type: "verification", id: publicId },
      detailsOf: (result) => ({ basis: result.basis, count: result.related.length }),
      subjectCpfHashOf: () => hash ?? undefined,
    },
    async (): Promise<RelatedVerificationsResponse> => {
      hash = await indexedCpfHash(db, publicId);
      if (!hash) return { related: [], basis: "unknown" };
      const rows = await samePersonRows(db, publicId, hash);
      const toRead = rows.filter((row) => row.caseStatus === null).slice(0, MAX_READS);
      const limit = pLimit(READS_AT_ONCE);
      const reads = new Map(
        await Promise.all(
          toRead.map((row) =>
            limit(async () => {
              try {
                return [row.publicId, (await viewVerification(context, row.publicId, viewer, deps)).verification] as const;
              } catch (error) {
                // One unreadable verification (gone, another environment's) leaves its row without a status.
                log.warn("related_read_failed", { error });
                return [row.publicId, undefined] as const;
              }
            }),
          ),
        ),
      );
      return { related: rows.map((row) => withRead(fromCase(row), reads.get(row.publicId))), basis: "cpf_hash" };
    },
  );
}

import "server-only";

import type { Database } from "@/lib/db/client";
import type { Verification } from "@/lib/domain/verification";
import { coreClient } from "@/lib/upstream/core";

import type { CaseSettings } from "./rules";
import { indexVerifications } from "./search";
import { applyObservations, caseSettings, observe } from "./store";
import { indexEntryOf } from "./sync";

/*
 * Cases fed by the service's events (shared contract 3). The webhooks processor calls the listener for
 * each change, possibly twice for one change: everything here is an idempotent upsert. An event's status
 * is not enough to judge red flags, so the verification is fetched once (one upstream read per change);
 * its `ref_id` goes to the search index.
 *
 * Until the events branch is merged, the contract's types are declared here; at merge they are imported
 * from `@/lib/webhooks/changes` and `onVerificationChange(caseListener)` registers the listener.
 */

export interface VerificationChange {
  publicId: string;
  event: string;
  status: string | null;
  refId: string | null;
  occurredAt: Date;
  deliveryId: string;
}
export type VerificationChangeListener = (db: Database, change: VerificationChange) => Promise<void>;

export interface IngestDeps {
  fetchVerification: (publicId: string) => Promise<Verification>;
  settings: () => CaseSettings;
}

export function createCaseListener(deps: IngestDeps): VerificationChangeListener {
  return async (db, change) => {
    if (change.refId) await indexVerifications(db, [{ publicId: change.publicId, refId: change.refId }]);
    const verification = await deps.fetchVerification(change.publicId);
    const settings = deps.settings();
    await applyObservations(db, [observe(verification, settings)], settings);
    await indexVerifications(db, [indexEntryOf(verification)]);
  };
}

export const caseListener: VerificationChangeListener = createCaseListener({
  fetchVerification: (publicId) => coreClient().getVerification(publicId),
  settings: caseSettings,
});

import "server-only";

import type { CaseSettings } from "@/lib/cases/rules";
import { withUpstreamSource } from "@/lib/upstream/call-count";
import { coreClient } from "@/lib/upstream/core";
import { isUpstreamError } from "@/lib/upstream/errors";
import { canExpire, EXPIRED_EVENT, type Verification } from "@/lib/upstream/model/verification";
import type { VerificationChangeListener } from "@/lib/webhooks/server/changes";

import { autoAssign } from "./auto-assign";
import { indexVerifications } from "./search";
import { applyObservations, applyStatusOnly, caseSettings, observe } from "./store";
import { indexEntryOf } from "./sync";

/*
 * Cases fed by the service's events (shared contract 3). The webhooks processor calls the listener for
 * each change inside the transaction recording the event, possibly twice for one change: everything here
 * is an idempotent upsert, and a failure (the upstream unreachable) rolls the event back for a retry. An
 * event's status is not enough to judge red flags, so the verification is fetched once (one upstream read
 * per change), which also makes a late, out-of-order delivery harmless; its `ref_id` goes to the search index.
 * `verification.expired` (api/webhooks.mdx: "expired without an outcome") closes the case as expired.
 */

export interface IngestDeps {
  fetchVerification: (publicId: string) => Promise<Verification>;
  settings: () => CaseSettings;
}

export function createCaseListener(deps: IngestDeps): VerificationChangeListener {
  return async (db, change) => {
    if (change.refId) await indexVerifications(db, [{ publicId: change.publicId, refId: change.refId }]);
    let verification: Verification;
    try {
      verification = change.verification ?? (await deps.fetchVerification(change.publicId));
    } catch (error) {
      // Not (or no longer) readable with this key: nothing a case could show; the event itself is kept.
      if (isUpstreamError(error) && error.kind === "not_found") return;
      // Unreachable just now: the event's status still opens or closes the case (never blocking the
      // webhook pipeline on the upstream); the red flags come with the next sync. An expiry closes it as expired.
      await applyStatusOnly(db, change.publicId, change.status, deps.settings(), undefined, { expired: change.event === EXPIRED_EVENT });
      if (change.status === "review") await autoAssign(db, [change.publicId]);
      return;
    }
    const settings = deps.settings();
    const observation = observe(verification, settings);
    // The service said the flow expired: believed even if our clock has not reached `expires_at` yet, unless the
    // verification as read now says the person's part is done (review or decided).
    if (change.event === EXPIRED_EVENT && canExpire(verification.status)) observation.expired = true;
    const { opened } = await applyObservations(db, [observation], settings);
    // Inside the event's transaction (the processor's): the assignment commits with the case it assigns.
    await autoAssign(db, opened);
    await indexVerifications(db, [indexEntryOf(verification)]);
  };
}

export const caseListener: VerificationChangeListener = createCaseListener({
  // Counted as the event processing's calls, whichever request or sweep happens to run the processor.
  fetchVerification: (publicId) => withUpstreamSource("job:webhooks.process", () => coreClient().getVerification(publicId)),
  settings: caseSettings,
});

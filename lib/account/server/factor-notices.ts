import "server-only";

import type { FactorNotices } from "@/lib/auth/server/factors";
import { notify } from "@/lib/notifications/server/notify";
import { kickOutbox } from "@/lib/notifications/server/outbox";

/*
 * A second factor added to or removed from a member's account is told to that member: in the app (the bell) and by
 * email when SMTP_URL is set, never in the shared chat channel (lib/notifications). Made in the change's own
 * transaction, so the member hears of every change that committed and of nothing that did not; a change they did
 * not make is their cue to tell an administrator.
 */
export const factorNotices: FactorNotices = {
  async within(tx, { userId, change, key }) {
    await notify(tx, { userIds: [userId], kind: change === "added" ? "factor_added" : "factor_removed", casePublicId: "", dedupeKey: key });
  },
  after() {
    void kickOutbox();
  },
};

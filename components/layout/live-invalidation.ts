import { caseKeys } from "@/lib/cases/hooks";
import type { LiveMessage } from "@/lib/shared/api-client/live";
import { verificationEventKeys } from "@/lib/webhooks/hooks";

// The tab's client the keys are invalidated in: loaded with the keys, after the page.
export { tabQueryClient } from "@/lib/shared/api-client/query-client";

/*
 * Which react-query keys a live event concerns (by prefix, never the whole cache): a case's events that case (the
 * queue, which keeps no cache, reads its view again itself: components/cases/use-queue-data.ts), a verification's
 * change its event history (whose new event has the server draw the verification's page again:
 * components/verifications/verification-event-history.tsx), its case and the change feed (the list does not reorder
 * itself under the analyst: the feed's notice offers the changes, components/verifications/live-changes-notice.tsx),
 * a notification the bell. Apart from the shell (./live-updates.tsx) because the
 * keys come with the verification and case modules, which most pages would not load otherwise.
 */

// The bell's key prefix (lib/notifications/hooks.ts `notificationKeys.all`), named here so the shell's stream does
// not depend on the bell's module.
const NOTIFICATIONS_KEY = ["notifications"] as const;

export function keysFor(message: LiveMessage): (readonly unknown[])[] {
  const publicId = typeof message.payload.publicId === "string" ? message.payload.publicId : null;
  if (message.topic.startsWith("case.")) {
    return publicId ? [caseKeys.detail(publicId)] : [];
  }
  if (message.topic === "verification.changed") {
    return [verificationEventKeys.feed(), ...(publicId ? [verificationEventKeys.history(publicId), caseKeys.detail(publicId)] : [])];
  }
  if (message.topic === "notification") return [NOTIFICATIONS_KEY];
  return [];
}

/** Back after an outage: whatever the pages show may have changed meanwhile. */
export function keysAfterOutage(): (readonly unknown[])[] {
  return [verificationEventKeys.feed(), NOTIFICATIONS_KEY];
}

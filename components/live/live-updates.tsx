"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

import { caseKeys } from "@/lib/cases/queries";
import { openLiveStream, type LiveMessage } from "@/lib/shared/api-client/live";
import { verificationKeys } from "@/lib/verifications/queries";
import { verificationEventKeys } from "@/lib/webhooks/queries";

/*
 * The tab's one live stream (lib/shared/api-client/live.ts), mounted once by the dashboard's shell. Each
 * event invalidates the react-query keys it concerns (by prefix, never the whole cache): a case's events the
 * queues and that case, a verification's change that verification and the change feed (the list does not
 * reorder itself under the analyst: the feed's notice offers the changes, components/verifications/
 * live-changes-notice.tsx), a notification the bell. Only queries in use refetch; the rest are marked stale.
 */

// The bell's key prefix (lib/notifications/queries.ts `notificationKeys.all`), named here so the shell's stream does
// not depend on the bell's module.
const NOTIFICATIONS_KEY = ["notifications"] as const;

const TOPICS = ["case.opened", "case.assigned", "case.unassigned", "case.outcome", "case.closed", "verification.changed", "notification"];

function keysFor(message: LiveMessage): (readonly unknown[])[] {
  const publicId = typeof message.payload.publicId === "string" ? message.payload.publicId : null;
  if (message.topic.startsWith("case.")) {
    return [caseKeys.queues(), ...(publicId ? [caseKeys.detail(publicId)] : [])];
  }
  if (message.topic === "verification.changed") {
    return [
      verificationEventKeys.feed(),
      ...(publicId ? [verificationKeys.detail(publicId), verificationEventKeys.history(publicId), caseKeys.detail(publicId)] : []),
    ];
  }
  if (message.topic === "notification") return [NOTIFICATIONS_KEY];
  return [];
}

export function LiveUpdates() {
  const client = useQueryClient();
  useEffect(
    () =>
      openLiveStream(
        TOPICS,
        (message) => {
          for (const queryKey of keysFor(message)) void client.invalidateQueries({ queryKey });
        },
        // Back after an outage: whatever the pages show may have changed meanwhile.
        () => {
          for (const queryKey of [caseKeys.queues(), verificationEventKeys.feed(), NOTIFICATIONS_KEY])
            void client.invalidateQueries({ queryKey });
        },
      ),
    [client],
  );
  return null;
}

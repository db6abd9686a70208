"use client";

import { lazy } from "react";

import { AfterLoad } from "@/components/ui/after-load";

const DetailHistories = lazy(() => import("./detail-histories"));

/**
 * The histories under a verification's evidence (the case's timeline, the service's events), after the page's load:
 * below the fold at every size, so the first paint does not wait for their code. The event history, once there, has
 * the server draw the page again when a new event arrives (./verification-event-history.tsx).
 */
export function DetailHistoriesIsland({ publicId, queueContext }: { publicId: string; queueContext: string }) {
  return (
    <AfterLoad standIn={null}>
      <DetailHistories publicId={publicId} queueContext={queueContext} />
    </AfterLoad>
  );
}

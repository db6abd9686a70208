"use client";

import { CaseHistory } from "@/components/cases/case-timeline";

import { VerificationEventHistory } from "./verification-event-history";

/** The case's timeline and the verification's event history, under the evidence (./detail-histories-island.tsx). */
export default function DetailHistories({ publicId, queueContext }: { publicId: string; queueContext: string }) {
  return (
    <>
      <CaseHistory publicId={publicId} context={queueContext} />
      <VerificationEventHistory publicId={publicId} />
    </>
  );
}

"use client";

import { SegmentError } from "@/components/ui/segment-error";

// A render failure of the detail segment: the same message and retry as the list's.
export default function VerificationError({ reset }: { error: Error; reset: () => void }) {
  return <SegmentError reset={reset} />;
}

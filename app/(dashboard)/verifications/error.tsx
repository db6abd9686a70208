"use client";

import { SegmentError } from "@/components/ui/segment-error";

// A render failure of the list or detail segment (upstream failures have their own states inside the page).
export default function VerificationsError({ reset }: { error: Error; reset: () => void }) {
  return <SegmentError reset={reset} />;
}

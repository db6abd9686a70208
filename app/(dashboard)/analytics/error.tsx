"use client";

import { SegmentError } from "@/components/ui/segment-error";

// A render failure of the team's numbers.
export default function AnalyticsError({ reset }: { error: Error; reset: () => void }) {
  return <SegmentError reset={reset} />;
}

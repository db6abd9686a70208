"use client";

import { SegmentError } from "@/components/ui/segment-error";

// A render failure of the queue (API failures have their own state inside the page).
export default function CasesError({ reset }: { error: Error; reset: () => void }) {
  return <SegmentError reset={reset} />;
}

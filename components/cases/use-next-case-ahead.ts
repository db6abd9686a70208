"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

import { usePrefetchCase } from "@/lib/cases/hooks";
import { caseHref } from "@/lib/cases/queue-context";
import { useMediaAhead } from "@/lib/verifications/media-ahead";

/**
 * The next case of the queue is read before the analyst asks for it: its case, its page's route, its image
 * tokens and pictures (into memory only, for a member who may see images, `withMedia`), each a read ahead on
 * the audit trail; the pictures are recorded as seen when "next" shows them.
 */
export function useNextCaseAhead(next: string | null, context: string, withMedia: boolean) {
  const prefetchCase = usePrefetchCase();
  const router = useRouter();
  useEffect(() => {
    if (!next) return;
    void prefetchCase(next, context);
    router.prefetch(caseHref(next, context));
  }, [next, context, prefetchCase, router]);
  useMediaAhead(next, { enabled: withMedia });
}

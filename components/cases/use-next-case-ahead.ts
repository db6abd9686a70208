"use client";

import { useEffect } from "react";

import { useAppRouter } from "@/components/ui/app-link";
import { usePrefetchCase } from "@/lib/cases/hooks";
import { caseHref } from "@/lib/cases/queue-context";

/**
 * The next case of the queue is read before the analyst asks for it: its case and its page's route, each a read
 * ahead on the audit trail. Its image tokens and pictures are read ahead by the verification feature's part of
 * the panel (CaseVerificationPart).
 */
export function useNextCaseAhead(next: string | null, context: string) {
  const prefetchCase = usePrefetchCase();
  const router = useAppRouter();
  useEffect(() => {
    if (!next) return;
    void prefetchCase(next, context);
    router.prefetch(caseHref(next, context));
  }, [next, context, prefetchCase, router]);
}

"use client";

import { useTranslations } from "next-intl";
import { useLinkStatus } from "next/link";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";

/*
 * Pages render with their data and have no loading outline (docs/benchmarks.md "First paint"), so while a navigation
 * waits for the server the link that started it shows a bar, and screen readers hear "Loading…" from the
 * shell's one status region. Links report to that region through this context.
 */
// Two contexts, so the many links (100 rows of a list) hold only the stable reporter and do not re-render
// when the count changes; only the announcer reads the count.
const PendingCount = createContext(0);
const ReportPending = createContext<((delta: 1 | -1) => void) | null>(null);

export function NavigationStatusProvider({ children }: { children: ReactNode }) {
  const [count, setCount] = useState(0);
  const [report] = useState(() => (delta: 1 | -1) => setCount((current) => Math.max(0, current + delta)));
  return (
    <ReportPending.Provider value={report}>
      <PendingCount.Provider value={count}>{children}</PendingCount.Provider>
    </ReportPending.Provider>
  );
}

/** The status region: present from the first paint (so its changes are announced), "Loading…" while a link waits. */
export function NavigationAnnouncer() {
  const t = useTranslations("common");
  const pending = useContext(PendingCount) > 0;
  return (
    <p role="status" aria-live="polite" className="sr-only" data-navigation-status="">
      {pending ? t("loading") : ""}
    </p>
  );
}

/**
 * Inside a `<Link>` (which must be `relative`): a bar over the link's bottom edge while its navigation
 * waits, so it moves nothing; it fades in after 150 ms, so a fast navigation shows none.
 */
export function LinkPending() {
  const { pending } = useLinkStatus();
  const report = useContext(ReportPending);
  useEffect(() => {
    if (!pending || !report) return;
    report(1);
    return () => report(-1);
  }, [pending, report]);
  if (!pending) return null;
  return (
    <span
      aria-hidden="true"
      data-link-pending=""
      className="pointer-events-none absolute inset-x-1 bottom-0 h-0.5 animate-[link-pending_1s_ease-in-out_150ms_infinite_both] rounded-full bg-brand-600"
    />
  );
}

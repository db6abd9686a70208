"use client";

import { useId, type ReactNode } from "react";

/** One lookup result's card: its heading with the record's badges beside it, then the record. */
export function LookupCard({ title, badges, children }: { title: string; badges: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold text-slate-900">
          {title}
        </h3>
        {badges}
      </div>
      {children}
    </section>
  );
}

"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

/*
 * A record shown as a description list. Unknown values (the upstream's empty strings, null here) read
 * "not informed" in a muted italic, so they never look like a blank left by an error.
 */

export function RecordList({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">{children}</dl>;
}

export function RecordItem({ label, value, wide = false }: { label: string; value: ReactNode; wide?: boolean }) {
  const t = useTranslations("common");
  const missing = value === null || value === undefined || value === "";
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className={`mt-0.5 text-sm ${missing ? "text-slate-600 italic" : "text-slate-900"}`}>{missing ? t("notInformed") : value}</dd>
    </div>
  );
}

import type { ReactNode } from "react";

/** A page's heading: its title, the sentence that says what the page is for, and any line the page adds below. */
export function PageHeader({ title, intro, children }: { title: ReactNode; intro?: ReactNode; children?: ReactNode }) {
  return (
    <header className="space-y-1">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      {intro ? <p className="text-sm text-slate-700">{intro}</p> : null}
      {children}
    </header>
  );
}

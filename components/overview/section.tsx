import type { ReactNode } from "react";

import { Alert } from "@/components/ui/alert";

/** One panel of the overview: a titled region that stays whole on a printed page. */
export function OverviewSection({
  id,
  title,
  children,
  className = "",
}: {
  id: string;
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`break-inside-avoid rounded-lg border border-slate-200 bg-white p-4 print:border-slate-400 ${className}`}
    >
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3 space-y-4">{children}</div>
    </section>
  );
}

export function PanelError({ title, body }: { title: string; body: string }) {
  return (
    <Alert tone="warning" title={title}>
      <p>{body}</p>
    </Alert>
  );
}

/** A number that opens the list behind it. */
export function NumberLink({ href, children, label }: { href: string; children: ReactNode; label?: string }) {
  return (
    <a
      href={href}
      aria-label={label}
      className="font-medium text-brand-800 tabular-nums underline decoration-brand-600/40 underline-offset-2 hover:decoration-brand-800"
    >
      {children}
    </a>
  );
}

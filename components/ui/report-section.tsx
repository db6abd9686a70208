import type { ReactNode } from "react";

/** One panel of a report (the overview, the upstream calls): a titled region that stays whole on a printed page. */
export function ReportSection({
  id,
  title,
  children,
  className = "",
  actions,
}: {
  id: string;
  title: string;
  children: ReactNode;
  className?: string;
  /** Beside the title: the section's CSV downloads. */
  actions?: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`break-inside-avoid rounded-lg border border-slate-200 bg-white p-4 print:border-slate-400 ${className}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {actions ? <div className="flex flex-wrap gap-3 print:hidden">{actions}</div> : null}
      </div>
      <div className="mt-3 space-y-4">{children}</div>
    </section>
  );
}

import type { ReactNode } from "react";

/**
 * A notice on one line: its mark and title, in a disclosure (keyboard: Tab to it, Enter or Space opens it) whose
 * body says the rest. The case page keeps the evidence on its first screen: a notice above it takes one line
 * however much it has to say (components/verifications/verification-detail.tsx). `role="note"` sits on the
 * wrapper: a <details> takes no other role.
 */
export function NoticeLine({
  mark,
  title,
  children,
  className = "",
  ...data
}: {
  mark: string;
  title: ReactNode;
  children: ReactNode;
  className?: string;
} & { [key: `data-${string}`]: string | undefined }) {
  return (
    <div role="note" className={`min-w-0 text-sm ${className}`} {...data}>
      <details className="group rounded-md border border-slate-300 bg-slate-100 text-slate-800">
        <summary className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-1 font-medium marker:content-none [&::-webkit-details-marker]:hidden">
          <span aria-hidden="true" className="font-mono font-bold">
            {mark}
          </span>
          <span className="min-w-0 truncate">{title}</span>
          <span aria-hidden="true" className="ml-auto text-xs text-slate-600 group-open:rotate-90">
            ▸
          </span>
        </summary>
        <div className="border-t border-slate-200 px-3 py-2">{children}</div>
      </details>
    </div>
  );
}

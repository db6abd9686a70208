import type { ReactNode } from "react";

/**
 * The heading of a page whose main action sits beside its title (invite a member, create a role): the title, the
 * sentence that says what the page is for, and the action, which wraps below on a narrow screen.
 */
export function TitleWithAction({ title, intro, action }: { title: ReactNode; intro: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">{intro}</p>
      </div>
      {action}
    </div>
  );
}

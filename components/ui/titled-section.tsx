import type { ReactNode } from "react";

/**
 * A page's section named by its heading: the h2 (the section's label for screen readers), the sentence under it
 * that says what the section is for, then the section's content.
 */
export function TitledSection({
  id,
  title,
  lead,
  leadClassName = "text-slate-700",
  className,
  children,
}: {
  /** The heading's id, which labels the section. */
  id: string;
  title: ReactNode;
  lead: ReactNode;
  /** The lead's colour and width. */
  leadClassName?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <div className="space-y-1">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <p className={`text-sm ${leadClassName}`}>{lead}</p>
      </div>
      {children}
    </section>
  );
}

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
  card = false,
  className,
  children,
}: {
  /** The heading's id, which labels the section. */
  id: string;
  title: ReactNode;
  lead: ReactNode;
  /** The lead's colour and width. */
  leadClassName?: string;
  /** Drawn as a card of its own (a panel among others on the page). */
  card?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={
        [card ? "rounded-xl border border-slate-200 bg-white p-5 shadow-sm" : null, className].filter(Boolean).join(" ") || undefined
      }
    >
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

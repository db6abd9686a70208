import type { ComponentProps, ReactNode } from "react";

/*
 * The parts of the tables of figures drawn beside the charts (the overview's panels, the integrations' call counts):
 * one look for their headings and cells, and the figures right-aligned in tabular digits.
 */

const TH = "px-2 py-1.5 text-left text-xs font-semibold text-slate-700";
const TD = "px-2 py-1.5 text-sm tabular-nums";

/**
 * A table too large for its panel, scrolling in a region of its own (reachable from the keyboard, named by `label`):
 * `tall` caps its height, otherwise it scrolls sideways only. Paper gets it whole.
 */
export function ScrollRegion({ label, tall = false, children }: { label: string; tall?: boolean; children: ReactNode }) {
  return (
    <div
      className={tall ? "max-h-96 overflow-auto print:max-h-none print:overflow-visible" : "overflow-x-auto"}
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      {children}
    </div>
  );
}

/** A column's heading; `numeric` aligns it right, over its figures. */
export function ColumnHead({ numeric = false, children }: { numeric?: boolean; children: ReactNode }) {
  return (
    <th scope="col" className={numeric ? `${TH} text-right` : TH}>
      {children}
    </th>
  );
}

/** A row's heading, its first cell; a total's in the weight of the text, the others lighter. */
export function RowHead({ total = false, className, ...props }: ComponentProps<"th"> & { total?: boolean }) {
  return <th scope="row" className={[TD, "text-left", total ? null : "font-normal", className].filter(Boolean).join(" ")} {...props} />;
}

/** A figure's cell, right-aligned; a total's in medium weight. */
export function FigureCell({ total = false, className, ...props }: ComponentProps<"td"> & { total?: boolean }) {
  return <td className={[TD, "text-right", total ? "font-medium" : null, className].filter(Boolean).join(" ")} {...props} />;
}

/** A cell of text in a table of figures (a name, a note). */
export function TextCell({ className, ...props }: ComponentProps<"td">) {
  return <td className={[TD, className].filter(Boolean).join(" ")} {...props} />;
}

/** One headline figure above a panel's chart: its name, then the figure and any line under it (their `dd`s). */
export function FigureTile({ label, children, ...data }: { label: ReactNode; children: ReactNode } & { [key: `data-${string}`]: string }) {
  return (
    <div className="rounded-md bg-slate-50 p-3 print:border print:border-slate-300" {...data}>
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      {children}
    </div>
  );
}

/**
 * A table of figures: its caption (for screen readers, or shown above the table with `shownCaption`), the column
 * headings (`head`; `sticky` keeps them in view over a tall scroll), the rows, and the totals' row (`foot`), if any.
 * `narrow` keeps a table of a few columns to a readable width.
 */
export function FigureTable({
  caption,
  shownCaption = false,
  narrow = false,
  sticky = false,
  head,
  foot,
  children,
}: {
  caption: string;
  shownCaption?: boolean;
  narrow?: boolean;
  sticky?: boolean;
  head: ReactNode;
  foot?: ReactNode;
  children: ReactNode;
}) {
  return (
    <table className={narrow ? "w-full max-w-xl border-collapse" : "w-full border-collapse"}>
      <caption className={shownCaption ? "pb-2 text-left text-xs text-slate-600" : "sr-only"}>{caption}</caption>
      <thead className={sticky ? "sticky top-0 border-b border-slate-200 bg-white" : "border-b border-slate-200"}>
        <tr>{head}</tr>
      </thead>
      <tbody className="divide-y divide-slate-100">{children}</tbody>
      {foot ? (
        <tfoot className="border-t border-slate-300">
          <tr>{foot}</tr>
        </tfoot>
      ) : null}
    </table>
  );
}

import { isValidElement, type ComponentPropsWithoutRef, type CSSProperties, type ReactNode, type Ref } from "react";

/*
 * The dashboard's one table pattern: a table from md up, and below it the same markup drawn as one stacked
 * card per row (CSS only), so a phone never scrolls a table sideways and every row's actions sit at the foot
 * of its card, in view. One markup for both: the tests, the accessible names and the row order are the same
 * at every width.
 *
 * The elements carry their table roles explicitly: a table whose rows are drawn as blocks loses its implicit
 * semantics in some browsers, the explicit roles keep them. Below md the column headers are not shown, so each
 * cell shows (and announces: generated content is part of the cell's text) its own label; from md up the label is
 * hidden and the header names the column.
 */

/** Headers that would not fit their column: a short form in an <abbr>, the full name on hover and for screen readers. */
export function ShortLabel({ short, full }: { short: string; full: string }) {
  if (short === full) return <>{full}</>;
  return (
    <>
      <abbr title={full} aria-hidden="true" className="no-underline">
        {short}
      </abbr>
      <span className="sr-only">{full}</span>
    </>
  );
}

export function DataTable({
  caption,
  label,
  busy,
  className = "",
  tableClassName = "",
  children,
  testId,
  columns,
}: {
  /** The table's name (a visually hidden caption). */
  caption: string;
  /**
   * Each column's label on a phone's card, in the cells' order (null: none, as for the row's title), written once for
   * the whole table instead of on every cell. For tables whose rows all have one cell per column; a cell's own
   * `label` wins.
   */
  columns?: Array<string | null>;
  /**
   * When the table may scroll sideways from md up (wide tables on a narrow desktop), the wrapper is a named,
   * focusable region so a keyboard can scroll it too. Below md nothing scrolls.
   */
  label?: string;
  busy?: boolean;
  className?: string;
  tableClassName?: string;
  children: ReactNode;
  testId?: string;
}) {
  const region = label ? { tabIndex: 0, role: "region", "aria-label": label } : {};
  return (
    <div
      {...region}
      data-table-frame=""
      data-testid={testId}
      className={`md:overflow-x-auto md:rounded-lg md:border md:border-slate-200 md:bg-white ${className}`}
    >
      <table
        role="table"
        aria-busy={busy || undefined}
        className={`w-full border-collapse text-sm max-md:block ${tableClassName}`}
        style={columns ? columnLabels(columns) : undefined}
      >
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/** The columns' labels as the card's CSS reads them (app/globals.css, `--col-N`): CSS strings. */
function columnLabels(columns: Array<string | null>): CSSProperties {
  const style: Record<string, string> = {};
  columns.forEach((label, index) => {
    if (label) style[`--col-${index + 1}`] = `"${label.replace(/[\\"]/g, "\\$&").replace(/\n/g, "\\a ")}"`;
  });
  return style as CSSProperties;
}

/** The header row: shown from md up only (each card labels its own fields). */
export function DataHead({ className = "", children }: { className?: string; children: ReactNode }) {
  return (
    <thead
      role="rowgroup"
      className={`bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-700 uppercase max-md:hidden ${className}`}
    >
      <tr role="row">{children}</tr>
    </thead>
  );
}

/** A column header; `pad` replaces the default padding. */
export function DataHeader({ className = "", pad = "px-3 py-2", children, ...props }: ComponentPropsWithoutRef<"th"> & { pad?: string }) {
  return (
    <th role="columnheader" scope="col" className={`${pad} align-bottom ${className}`} {...props}>
      {children}
    </th>
  );
}

export function DataBody({ className = "", children }: { className?: string; children: ReactNode }) {
  return (
    <tbody role="rowgroup" className={`max-md:flex max-md:flex-col max-md:gap-2 ${className}`}>
      {children}
    </tbody>
  );
}

/** A row; below md a card. */
export function DataRow({ className = "", children, ref, ...props }: ComponentPropsWithoutRef<"tr"> & { ref?: Ref<HTMLTableRowElement> }) {
  return (
    <tr ref={ref} role="row" className={className ? `data-row ${className}` : "data-row"} {...props}>
      {children}
    </tr>
  );
}

type CellKind = "title" | "field" | "actions";

/*
 * Each kind's card layout is one short class (app/globals.css, `data-*`), not its utilities written out on every cell:
 * a list of 100 rows repeats them 1,200 times in its HTML. They sit in the components layer, so a utility a caller
 * passes still wins over them, as before. The padding that a card drops is a utility here, so it keeps its order
 * against the caller's `pad`.
 */
const KIND: Record<CellKind, string> = {
  // The card's heading line: the row's name (and its link), no label.
  title: "data-title max-md:pb-1",
  // A label on the left, the value on the right: the default, styled as any cell but a title or actions, so no class.
  field: "",
  // The row's actions, at the foot of the card, wrapping.
  actions: "data-actions max-md:pt-2",
};

/**
 * One text, or one HTML element: a single item of the card's line beside its label, needing no wrapper of its own. A
 * component may draw several parts, so it is wrapped.
 */
function isSingle(children: ReactNode): boolean {
  if (typeof children === "string" || typeof children === "number") return true;
  return isValidElement(children) && typeof children.type === "string";
}

/**
 * A cell. `label` names it on a card (below md), drawn by CSS from the cell's `data-label` (app/globals.css): written
 * once per cell as an attribute, not as an element with its classes; `rowHeader` makes it the row's header (a `th`);
 * `pad` replaces the default padding of the table layout (a card has its own), and "" leaves it to the table's CSS.
 * A value of several parts (text and elements) is wrapped, so the card lays it out as one item beside its label.
 */
export function DataCell({
  label,
  kind = "field",
  rowHeader = false,
  pad = "px-3 py-2",
  className = "",
  children,
  ...props
}: ComponentPropsWithoutRef<"td"> & { label?: string; kind?: CellKind; rowHeader?: boolean; pad?: string }) {
  const field = kind === "field";
  const content = field && !isSingle(children) ? <span className="data-value">{children}</span> : children;
  const classes = [pad && `${pad} max-md:p-0`, KIND[kind], className].filter(Boolean).join(" ");
  const labelled = label && field ? { "data-label": label } : {};
  return rowHeader ? (
    <th
      role="rowheader"
      scope="row"
      className={classes ? `text-left ${classes}` : "text-left"}
      {...labelled}
      {...(props as ComponentPropsWithoutRef<"th">)}
    >
      {content}
    </th>
  ) : (
    <td role="cell" className={classes || undefined} {...labelled} {...props}>
      {content}
    </td>
  );
}

"use client";

import { useEffect, useRef } from "react";

import type { CaseSummary } from "@/lib/cases/types";

/** Cases picked for a bulk action (issue 23): held by the page, which shows the bulk bar. */
export interface BulkSelection {
  picked: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
}

/** The ids from `from` to `to` (either order), for a Shift range. */
export function pickRange(items: CaseSummary[], from: number, to: number): string[] {
  const [start, end] = from <= to ? [from, to] : [to, from];
  return items.slice(start, end + 1).map((item) => item.publicId);
}

/** Pick or unpick every case on this page: the pick column's header (mixed while some are picked). */
export function PickAll({ items, bulk, label }: { items: CaseSummary[]; bulk: BulkSelection; label?: string }) {
  const box = useRef<HTMLInputElement>(null);
  const onPage = items.map((item) => item.publicId);
  const pickedOnPage = onPage.filter((publicId) => bulk.picked.has(publicId)).length;
  useEffect(() => {
    if (box.current) box.current.indeterminate = pickedOnPage > 0 && pickedOnPage < onPage.length;
  }, [pickedOnPage, onPage.length]);
  return (
    <input
      ref={box}
      type="checkbox"
      className="size-4"
      aria-label={label}
      title={label}
      checked={onPage.length > 0 && pickedOnPage === onPage.length}
      onChange={(event) => {
        const next = new Set(bulk.picked);
        for (const publicId of onPage) {
          if (event.target.checked) next.add(publicId);
          else next.delete(publicId);
        }
        bulk.onChange(next);
      }}
    />
  );
}

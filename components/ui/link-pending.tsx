"use client";

import { useLinkStatus } from "next/link";

/**
 * Inside a `<Link>` (which must be `relative`): a bar under the link while the navigation it started
 * waits for the server. Pages render with their data and have no loading outline (README "First paint"),
 * so this is what shows that a click was taken. Drawn over the link's bottom edge, it moves nothing; it
 * fades in after 150 ms, so a fast navigation shows none.
 */
export function LinkPending() {
  const { pending } = useLinkStatus();
  if (!pending) return null;
  return (
    <span
      aria-hidden="true"
      data-link-pending=""
      className="pointer-events-none absolute inset-x-1 bottom-0 h-0.5 animate-[link-pending_1s_ease-in-out_150ms_infinite_both] rounded-full bg-brand-600"
    />
  );
}

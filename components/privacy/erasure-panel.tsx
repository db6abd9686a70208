"use client";

/** Erasure requests on /admin/privacy (issue 24, item 3): being built; renders nothing yet. */
export function ErasurePanel() {
  return null;
}

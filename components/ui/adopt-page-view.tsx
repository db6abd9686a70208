"use client";

import { useState } from "react";

import { adoptPageView } from "@/lib/shared/page-view";

/**
 * Hands a server-rendered page's view id to the browser (lib/shared/page-view.ts), so the calls the page makes
 * next (the case, the images…) are written on the audit trail under the same view as its first render. Done
 * while rendering, before any sibling below it fetches; renders nothing.
 */
export function AdoptPageView({ id, path }: { id: string | undefined; path: string }) {
  useState(() => {
    if (id) adoptPageView(id, path);
    return null;
  });
  return null;
}

"use client";

import { useSearchParams } from "next/navigation";
import type { ReactNode } from "react";

import { usePagePath } from "@/components/ui/app-link";

/**
 * A link to the page the browser is on, with its query, under another connection (/c/{connection}/…): for the
 * connection switcher (./connection-switcher.tsx), drawn by the server, which does not know the page after a move within
 * the app. A whole page load, not the router's: the shell, the header and every cached answer belong to the
 * connection, and a client-side move would keep the previous connection's.
 */
export function SamePageLink({ connection, className, children }: { connection: string; className?: string; children: ReactNode }) {
  const page = usePagePath();
  const search = useSearchParams().toString();
  return (
    <a href={`/c/${connection}${page === "/" ? "" : page}${search ? `?${search}` : ""}`} className={className}>
      {children}
    </a>
  );
}

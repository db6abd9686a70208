"use client";

import type { ReactNode } from "react";

import { AppLink as Link, usePagePath } from "@/components/ui/app-link";
import { LinkPending } from "@/components/ui/link-pending";

/**
 * One entry of the navigation (./main-nav.tsx, drawn by the server): marked as the current page while the address is
 * `match` (its href by default) or below it, which only the browser knows after a move within the app.
 */
export function NavLink({ href, match = href, children }: { href: string; match?: string; children: ReactNode }) {
  const pathname = usePagePath();
  const current = pathname === match || pathname.startsWith(`${match}/`);
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      className={`relative block rounded-md px-3 py-2 text-sm font-medium ${
        current ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"
      }`}
    >
      {children}
      <LinkPending />
    </Link>
  );
}

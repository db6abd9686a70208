import type { ReactNode } from "react";

// Tones always come with text: colour is never the only carrier of meaning. Each tone's colours are one class
// (app/globals.css, `.badge-*`), contrast ≥ 4.5:1.
export type BadgeTone = "success" | "warning" | "danger" | "info" | "neutral";

export function Badge({ tone = "neutral", children, className = "" }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return <span className={badgeClass(tone, className)}>{children}</span>;
}

/** A badge's classes, for a span drawn as a badge where a component would not do (a table cell's one element). */
export function badgeClass(tone: BadgeTone, className = ""): string {
  return className ? `badge badge-${tone} ${className}` : `badge badge-${tone}`;
}

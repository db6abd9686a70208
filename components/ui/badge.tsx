import type { ReactNode } from "react";

// Tones always come with text: colour is never the only carrier of meaning. Contrast ≥ 4.5:1.
const TONES = {
  success: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
  warning: "bg-amber-50 text-amber-900 ring-amber-600/30",
  danger: "bg-red-50 text-red-800 ring-red-600/30",
  info: "bg-sky-50 text-sky-900 ring-sky-600/30",
  neutral: "bg-slate-100 text-slate-700 ring-slate-500/30",
} as const;

export type BadgeTone = keyof typeof TONES;

export function Badge({ tone = "neutral", children, className = "" }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]} ${className}`}
    >
      {children}
    </span>
  );
}

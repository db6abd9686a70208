"use client";

import type { ButtonHTMLAttributes } from "react";

import { Spinner } from "./spinner";
import { useHydrated } from "./use-hydrated";

const VARIANTS = {
  primary: "bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-700/60",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-400",
  danger: "bg-red-700 text-white hover:bg-red-800 disabled:bg-red-700/60",
  ghost: "text-slate-700 hover:bg-slate-100 disabled:text-slate-400",
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof VARIANTS;
  /** Shows a spinner, disables the button and tells assistive technology it is busy. */
  pending?: boolean;
  /**
   * Shows the spinner and tells assistive technology it is busy, but keeps the button enabled: a focused button
   * that becomes disabled loses focus, so one whose press is still being answered (a dialog whose code is on its
   * way) stays focusable and focus can come back to it.
   */
  busy?: boolean;
  /**
   * The form this button submits works without the page's script (a `method`/`action` form: a plain GET, a POST to a
   * route, a server action), so it is pressable in the server's HTML. Any other submit button is drawn disabled until
   * the page's code has hydrated it: a form handled by script alone, submitted before then, would be sent by the
   * browser itself to the page's own address with its named fields in the query (a searched CPF among them once) and
   * the press lost with the reload. Guarded over every page by e2e/early-submit.spec.ts.
   */
  withoutScript?: boolean;
}

export function Button({
  variant = "primary",
  pending = false,
  busy = false,
  disabled,
  className = "",
  children,
  type = "button",
  withoutScript = false,
  ...rest
}: ButtonProps) {
  const hydrated = useHydrated();
  const early = type === "submit" && !withoutScript && !hydrated;
  return (
    <button
      type={type}
      disabled={disabled || pending || early}
      aria-busy={pending || busy || undefined}
      className={`inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium transition-colors disabled:cursor-not-allowed ${VARIANTS[variant]} ${className}`}
      {...rest}
    >
      {pending || busy ? <Spinner /> : null}
      {children}
    </button>
  );
}

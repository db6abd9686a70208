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

export interface BareButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /**
   * The form this button submits works without the page's script (a `method`/`action` form: a plain GET, a POST to a
   * route, a server action), so it is pressable in the server's HTML. Any other button is drawn disabled until the
   * page's code has hydrated it:
   * - a plain button (`type="button"`) does something only through its handler, which is not attached yet: a press
   *   then would do nothing and be lost, with nothing to say so;
   * - a submit button of a form handled by script alone, pressed then, would have the browser itself send the form to
   *   the page's own address with its named fields in the query (a searched CPF among them once) and the press lost
   *   with the reload.
   * Guarded over every page by e2e/early-submit.spec.ts, and every button of the code goes through here (lint).
   */
  withoutScript?: boolean;
  ref?: React.Ref<HTMLButtonElement>;
}

/**
 * A button with no look of its own (the caller's class names it all), refused visibly until the page's code runs.
 * The one `<button>` of the code: `Button` adds the look.
 */
export function BareButton({ type = "button", withoutScript = false, disabled, ...rest }: BareButtonProps) {
  const hydrated = useHydrated();
  const early = !hydrated && !withoutScript && type !== "reset";
  return <button type={type} disabled={disabled || early} {...rest} />;
}

export interface ButtonProps extends BareButtonProps {
  variant?: keyof typeof VARIANTS;
  /** Shows a spinner, disables the button and tells assistive technology it is busy. */
  pending?: boolean;
  /**
   * Shows the spinner and tells assistive technology it is busy, but keeps the button enabled: a focused button
   * that becomes disabled loses focus, so one whose press is still being answered (a dialog whose code is on its
   * way) stays focusable and focus can come back to it.
   */
  busy?: boolean;
}

export function Button({ variant = "primary", pending = false, busy = false, disabled, className = "", children, ...rest }: ButtonProps) {
  return (
    <BareButton
      disabled={disabled || pending}
      aria-busy={pending || busy || undefined}
      className={`inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium transition-colors disabled:cursor-not-allowed ${VARIANTS[variant]} ${className}`}
      {...rest}
    >
      {pending || busy ? <Spinner /> : null}
      {children}
    </BareButton>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";

import { Button } from "@/components/ui/button";

/**
 * Copies a value to the clipboard and says so in a polite live region. When the clipboard is refused
 * (no permission, not a secure context) it says how to copy by hand instead of failing silently.
 */
export function CopyButton({ value, label, className = "" }: { value: string; label?: string; className?: string }) {
  const t = useTranslations("common.copy");
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 4000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  }

  return (
    <span className={`inline-flex flex-wrap items-center gap-2 ${className}`}>
      <Button variant="secondary" onClick={copy}>
        {label ?? t("copy")}
      </Button>
      <span role="status" aria-live="polite" className={`text-sm ${state === "failed" ? "text-red-700" : "text-emerald-800"}`}>
        {state === "copied" ? t("copied") : state === "failed" ? t("failed") : ""}
      </span>
    </span>
  );
}

/** A read-only, monospace value that selects itself on focus, so it can be copied by hand too. */
export function SecretValue({ id, value, label, describedBy }: { id: string; value: string; label: string; describedBy?: string }) {
  return (
    <input
      id={id}
      aria-label={label}
      aria-describedby={describedBy}
      readOnly
      value={value}
      spellCheck={false}
      onFocus={(event) => event.currentTarget.select()}
      className="block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
    />
  );
}

/**
 * A labelled secret value (a session's address, say) with its copy button beside it, below it on a phone; `hint`
 * says what the value is for, under the label.
 */
export function CopyableSecret({
  id,
  label,
  value,
  hint,
  copyLabel,
}: {
  id: string;
  label: string;
  value: string;
  hint?: string;
  copyLabel?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <SecretValue id={id} value={value} label={label} describedBy={hint ? `${id}-hint` : undefined} />
        </div>
        <CopyButton value={value} label={copyLabel} />
      </div>
    </div>
  );
}

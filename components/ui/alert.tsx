import type { ReactNode } from "react";

const TONES = {
  error: "border-red-200 bg-red-50 text-red-900",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  info: "border-sky-200 bg-sky-50 text-sky-900",
  success: "border-emerald-200 bg-emerald-50 text-emerald-900",
} as const;

/** A message box; errors are announced (`role="alert"`), the rest politely (`role="status"`). */
export function Alert({
  tone = "info",
  title,
  children,
  action,
}: {
  tone?: keyof typeof TONES;
  title?: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-lg border p-4 text-sm ${TONES[tone]}`}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}

/**
 * Where the last success of a page's action is told (a role saved, a protocol recorded, a factor added): a polite
 * live region that is always there, so the message is announced when it appears, with its success box inside.
 */
export function SuccessNotice({ children }: { children: ReactNode }) {
  return <div aria-live="polite">{children ? <Alert tone="success">{children}</Alert> : null}</div>;
}

"use client";

import type { ReactNode } from "react";

import { Alert } from "./alert";
import { Dialog } from "./dialog";
import { DialogFormActions } from "./dialog-form-actions";

/*
 * Asks before a consequential action. Cancel comes first, so it is where focus lands and what Enter
 * does by default; the dialog stays open while the action runs and after it fails, showing why, so
 * nothing is lost and the person can try again or step back.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel,
  tone = "danger",
  pending,
  error,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
  tone?: "danger" | "primary";
  pending: boolean;
  error: ReactNode;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))} title={title} description={description}>
      <div className="space-y-4">
        <div aria-live="assertive">{error ? <Alert tone="error">{error}</Alert> : null}</div>
        <DialogFormActions
          cancelLabel={cancelLabel}
          submitLabel={confirmLabel}
          tone={tone}
          pending={pending}
          cancelDisabled={pending}
          onConfirm={onConfirm}
        />
      </div>
    </Dialog>
  );
}

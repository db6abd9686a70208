"use client";

import { Button } from "./button";
import { DialogClose } from "./dialog";

/**
 * A dialog's last row: cancel (closes the dialog) and the action, at the right. The action submits the dialog's form,
 * or, given `onConfirm`, is a plain button that calls it (a dialog that only asks, ConfirmDialog).
 */
export function DialogFormActions({
  cancelLabel,
  submitLabel,
  pending,
  cancelDisabled,
  submitDisabled,
  tone = "primary",
  onConfirm,
}: {
  cancelLabel: string;
  submitLabel: string;
  /** The submission is under way: the submit button shows it and is disabled. */
  pending: boolean;
  cancelDisabled?: boolean;
  submitDisabled?: boolean;
  tone?: "primary" | "danger";
  onConfirm?: () => void;
}) {
  return (
    <div className="flex justify-end gap-2">
      <DialogClose asChild>
        <Button variant="secondary" disabled={cancelDisabled}>
          {cancelLabel}
        </Button>
      </DialogClose>
      <Button type={onConfirm ? "button" : "submit"} variant={tone} pending={pending} disabled={submitDisabled} onClick={onConfirm}>
        {submitLabel}
      </Button>
    </div>
  );
}

"use client";

import { Button } from "./button";
import { DialogClose } from "./dialog";

/** A dialog form's last row: cancel (closes the dialog) and submit, at the right. */
export function DialogFormActions({
  cancelLabel,
  submitLabel,
  pending,
  cancelDisabled,
  submitDisabled,
}: {
  cancelLabel: string;
  submitLabel: string;
  /** The submission is under way: the submit button shows it and is disabled. */
  pending: boolean;
  cancelDisabled?: boolean;
  submitDisabled?: boolean;
}) {
  return (
    <div className="flex justify-end gap-2">
      <DialogClose asChild>
        <Button variant="secondary" disabled={cancelDisabled}>
          {cancelLabel}
        </Button>
      </DialogClose>
      <Button type="submit" pending={pending} disabled={submitDisabled}>
        {submitLabel}
      </Button>
    </div>
  );
}

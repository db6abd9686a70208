"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { useErrorReason } from "@/components/staff/use-error-reason";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field, SelectField } from "@/components/ui/field";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { ROLES } from "@/lib/auth/roles";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { inviteStaff, type InviteStaffResponse } from "@/lib/staff/requests";
import { parseInviteStaff } from "@/lib/staff/rules";

/*
 * Invite form in a Radix dialog; the role is a built-in one or one of the custom roles the page hands in.
 * On success the dialog turns into the one-time password, shown this
 * once (the server keeps only its hash); closing the dialog forgets it.
 */
export function InviteStaffDialog({ customRoles = [] }: { customRoles?: ReadonlyArray<{ id: string; name: string }> }) {
  const t = useTranslations("staff.invite");
  const tRoles = useTranslations("staff.roles");
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<InviteStaffResponse | null>(null);
  const [invalid, setInvalid] = useState<string[]>([]);
  const [copied, setCopied] = useState(false);
  // The list is drawn again once the member is created (and after a refusal: another admin may have invited them).
  const mutation = useRefreshingRequest(inviteStaff);
  const reason = useErrorReason();
  const roleId = useId();

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      setCreated(null);
      setInvalid([]);
      setCopied(false);
      mutation.reset();
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = parseInviteStaff({ email: form.get("email"), name: form.get("name"), role: form.get("role") });
    if (!parsed.ok) {
      setInvalid(parsed.problems.map((problem) => problem.field));
      return;
    }
    setInvalid([]);
    mutation.mutate(parsed.value, { onSuccess: setCreated });
  }

  const conflict = mutation.error instanceof ApiRequestError && mutation.error.code === "conflict";
  const serverError = mutation.error ? (conflict ? t("emailTaken") : t("failed", { message: reason(mutation.error) })) : null;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={<Button>{t("button")}</Button>}
      title={created ? t("createdTitle") : t("title")}
      description={created ? undefined : t("description")}
    >
      {created ? (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">{t("createdBody", { name: created.user.name })}</p>
          <div>
            <p className="text-sm font-medium text-slate-800">{t("passwordLabel")}</p>
            <div className="mt-1 flex items-center gap-2">
              <code data-testid="one-time-password" className="flex-1 rounded-md bg-slate-100 px-3 py-2 font-mono text-base select-all">
                {created.oneTimePassword}
              </code>
              <Button
                variant="secondary"
                onClick={() => void navigator.clipboard?.writeText(created.oneTimePassword).then(() => setCopied(true))}
              >
                {copied ? t("copied") : t("copy")}
              </Button>
            </div>
          </div>
          <div className="flex justify-end">
            <DialogClose asChild>
              <Button>{t("done")}</Button>
            </DialogClose>
          </div>
        </div>
      ) : (
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          <div aria-live="assertive">
            {serverError ? <Alert tone="error">{serverError}</Alert> : invalid.length ? <Alert tone="error">{t("invalid")}</Alert> : null}
          </div>
          <Field
            label={t("email")}
            name="email"
            type="email"
            autoComplete="off"
            required
            error={invalid.includes("email") || conflict ? t("invalid") : undefined}
          />
          <Field label={t("name")} name="name" autoComplete="off" required error={invalid.includes("name") ? t("invalid") : undefined} />
          <SelectField id={roleId} name="role" label={t("role")} defaultValue="analyst">
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {tRoles(role)}
              </option>
            ))}
            {customRoles.map((role) => (
              <option key={role.id} value={role.id}>
                {role.name}
              </option>
            ))}
          </SelectField>
          <DialogFormActions cancelLabel={t("cancel")} submitLabel={t("submit")} pending={mutation.isPending} />
        </form>
      )}
    </Dialog>
  );
}

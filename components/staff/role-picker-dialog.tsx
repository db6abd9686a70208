"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import type { RoleRef } from "@/lib/auth/roles";
import type { RoleChoice, StaffListEntry } from "@/lib/staff/types";

/*
 * The role picker for an existing member: every built-in role and every live custom role as one radio group, the
 * member's current role checked and marked. Choosing hands the role to the page (`onChoose`), which asks first when
 * the change takes permissions away and sends it through PATCH /api/staff/{id} (whose step-up the API client asks
 * for). Nothing is sent while the choice is the current role.
 */
export function RolePickerDialog({
  member,
  roles,
  pending,
  error,
  onChoose,
  onOpenChange,
}: {
  member: StaffListEntry | null;
  roles: readonly RoleChoice[];
  pending: boolean;
  /** Why the last change was refused (a role holding a permission the admin lacks, the last admin). */
  error: string | null;
  onChoose: (member: StaffListEntry, role: RoleRef) => void;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations("staff.rolePicker");
  return (
    <Dialog
      open={member !== null}
      onOpenChange={onOpenChange}
      title={t("title", { name: member?.name ?? "" })}
      description={t("description", { name: member?.name ?? "" })}
    >
      {/* Keyed by the member, so each opening starts from their current role. */}
      <div className="space-y-4">
        <div aria-live="assertive">{error ? <Alert tone="error">{error}</Alert> : null}</div>
        {member ? <RoleForm key={member.id} member={member} roles={roles} pending={pending} onChoose={onChoose} /> : null}
      </div>
    </Dialog>
  );
}

function RoleForm({
  member,
  roles,
  pending,
  onChoose,
}: {
  member: StaffListEntry;
  roles: readonly RoleChoice[];
  pending: boolean;
  onChoose: (member: StaffListEntry, role: RoleRef) => void;
}) {
  const t = useTranslations("staff.rolePicker");
  const tRoles = useTranslations("staff.roles");
  const [chosen, setChosen] = useState<RoleRef>(member.role);
  const id = useId();
  const nameOf = (role: RoleChoice) => role.customName ?? tRoles(role.id);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (chosen !== member.role) onChoose(member, chosen);
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t("legend")}</legend>
        <div className="mt-2 grid max-h-[55vh] gap-2 overflow-y-auto sm:grid-cols-2">
          {roles.map((role, index) => {
            const labelId = `${id}-label-${index}`;
            const hintId = `${id}-hint-${index}`;
            const current = role.id === member.role;
            return (
              <label
                key={role.id}
                className={`flex cursor-pointer gap-2 rounded-lg border p-3 text-sm has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
                  chosen === role.id ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-white"
                }`}
              >
                <input
                  type="radio"
                  name="role"
                  value={role.id}
                  checked={chosen === role.id}
                  onChange={() => setChosen(role.id)}
                  className="mt-0.5"
                  aria-labelledby={labelId}
                  aria-describedby={hintId}
                />
                <span className="min-w-0">
                  <span id={labelId} className="block font-medium break-words text-slate-900">
                    {nameOf(role)}
                  </span>
                  <span id={hintId} className="block text-xs text-slate-600">
                    {role.customName === null ? t("builtIn") : t("custom")} · {t("permissions", { count: role.permissions.length })}
                    {current ? ` · ${t("current")}` : ""}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <DialogFormActions cancelLabel={t("cancel")} submitLabel={t("submit")} pending={pending} submitDisabled={chosen === member.role} />
    </form>
  );
}

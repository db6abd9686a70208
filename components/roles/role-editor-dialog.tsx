"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field } from "@/components/ui/field";
import { parseRoleInput, type Permission, type RoleInput } from "@/lib/auth/permissions";
import type { PermissionCatalogue, RoleDto } from "@/lib/roles/types";
import { refusalOf } from "@/lib/shared/api-client/api-request";

/*
 * The custom role form: a name and the catalogue as checkboxes, one fieldset per resource, each permission
 * with its explanation. The same rule as the API checks it before anything is sent (parseRoleInput).
 */
export function RoleEditorDialog({
  role,
  catalogue,
  open,
  onOpenChange,
  onSave,
  pending,
  error,
}: {
  role: RoleDto | null;
  catalogue: PermissionCatalogue;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSave: (input: RoleInput) => void;
  pending: boolean;
  error: Error | null;
}) {
  const t = useTranslations("roles");
  const [invalid, setInvalid] = useState<string[]>([]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = parseRoleInput({ name: form.get("name"), permissions: form.getAll("permissions") });
    if (!parsed.ok) {
      setInvalid(parsed.problems.map((problem) => problem.field));
      return;
    }
    setInvalid([]);
    onSave(parsed.value as RoleInput);
  }

  const held = new Set<Permission>(role?.permissions ?? []);
  const refusal = refusalOf(error);
  const nameError =
    refusal?.code === "conflict"
      ? t("nameTaken")
      : invalid.includes("name") || refusal?.fields?.includes("name")
        ? t("invalid")
        : undefined;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setInvalid([]);
        onOpenChange(next);
      }}
      title={role ? t("editTitle", { name: role.name }) : t("createTitle")}
    >
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <Field label={t("name")} name="name" defaultValue={role?.name ?? ""} autoComplete="off" required maxLength={60} error={nameError} />
        <div className="max-h-[55vh] space-y-4 overflow-y-auto pr-1">
          {catalogue.groups.map((group) => (
            <fieldset key={group.resource} className="rounded-md border border-slate-200 p-3">
              <legend className="px-1 text-sm font-semibold text-slate-900">{group.label}</legend>
              <ul className="space-y-2">
                {group.permissions.map((permission) => (
                  <li key={permission.name}>
                    <label className="flex items-start gap-2 text-sm">
                      <input
                        type="checkbox"
                        name="permissions"
                        value={permission.name}
                        defaultChecked={held.has(permission.name)}
                        className="mt-1 h-4 w-4"
                        aria-describedby={`permission-${permission.name.replace(".", "-")}`}
                      />
                      <span>
                        <span className="font-medium text-slate-900">{permission.label}</span>{" "}
                        <code className="text-xs text-slate-600">{permission.name}</code>
                        <span id={`permission-${permission.name.replace(".", "-")}`} className="block text-slate-600">
                          {permission.description}
                        </span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
        </div>
        {error && refusal?.code !== "conflict" ? <Alert tone="error">{t("failed", { message: error.message })}</Alert> : null}
        <DialogFormActions cancelLabel={t("cancel")} submitLabel={t("save")} pending={pending} />
      </form>
    </Dialog>
  );
}

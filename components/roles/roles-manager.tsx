"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { RoleCard } from "@/components/roles/role-card";
import { RoleEditorDialog } from "@/components/roles/role-editor-dialog";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TitleWithAction } from "@/components/ui/title-with-action";
import { isBuiltInRole, type RoleInput } from "@/lib/auth/permissions";
import {
  useCreateRoleMutation,
  usePermissionCatalogueQuery,
  useRetireRoleMutation,
  useRolesQuery,
  useUpdateRoleMutation,
} from "@/lib/roles/hooks";
import type { RoleDto } from "@/lib/roles/types";

// The roles as cards, the editor (a new role or a custom one) and the retire confirmation, with the last success above.
export function RolesManager() {
  const t = useTranslations("roles");
  const tCommon = useTranslations("common");
  const roles = useRolesQuery();
  const catalogue = usePermissionCatalogueQuery();
  const create = useCreateRoleMutation();
  const update = useUpdateRoleMutation();
  const retire = useRetireRoleMutation();
  // null: closed; "new": the creation form; a role: its edit form.
  const [editing, setEditing] = useState<RoleDto | "new" | null>(null);
  const [retiring, setRetiring] = useState<RoleDto | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const saving = editing === "new" ? create : update;
  function save(input: RoleInput) {
    const done = { onSuccess: () => (setEditing(null), setNotice(t("saved"))) };
    if (editing === "new") create.mutate(input, done);
    else if (editing) update.mutate({ id: editing.id, change: input }, done);
  }
  function openEditor(next: RoleDto | "new" | null) {
    create.reset();
    update.reset();
    setNotice(null);
    setEditing(next);
  }

  const labelOf = (role: RoleDto) => (role.builtIn && isBuiltInRole(role.id) ? t(`builtInNames.${role.id}`) : role.name);
  const retireError = retire.error
    ? retire.error.code === "conflict"
      ? retire.error.message
      : t("failed", { message: retire.error.message })
    : null;

  return (
    <section className="space-y-6">
      <TitleWithAction
        title={t("title")}
        intro={t("intro")}
        action={catalogue.data ? <Button onClick={() => openEditor("new")}>{t("create")}</Button> : null}
      />
      <div aria-live="polite">{notice ? <Alert tone="success">{notice}</Alert> : null}</div>
      {roles.error || catalogue.error ? (
        <Alert tone="error">
          {t("loadFailed")}{" "}
          <Button variant="secondary" onClick={() => void Promise.all([roles.refetch(), catalogue.refetch()])}>
            {tCommon("retry")}
          </Button>
        </Alert>
      ) : null}
      {roles.data && catalogue.data ? (
        <ul className="grid gap-4 lg:grid-cols-2">
          {roles.data.roles.map((role) => (
            <RoleCard
              key={role.id}
              role={role}
              label={labelOf(role)}
              catalogue={catalogue.data}
              onEdit={() => openEditor(role)}
              onRetire={() => (retire.reset(), setNotice(null), setRetiring(role))}
            />
          ))}
        </ul>
      ) : !roles.error && !catalogue.error ? (
        <p className="text-sm text-slate-600">{tCommon("loading")}</p>
      ) : null}
      {catalogue.data ? (
        <RoleEditorDialog
          key={editing === null ? "closed" : editing === "new" ? "new" : editing.id}
          role={editing === "new" ? null : editing}
          catalogue={catalogue.data}
          open={editing !== null}
          onOpenChange={(open) => (open ? undefined : setEditing(null))}
          onSave={save}
          pending={saving.isPending}
          error={saving.error}
        />
      ) : null}
      <ConfirmDialog
        open={retiring !== null}
        onOpenChange={(open) => (open ? undefined : setRetiring(null))}
        title={retiring ? t("retireTitle", { name: retiring.name }) : ""}
        description={t("retireBody")}
        confirmLabel={t("retireConfirm")}
        cancelLabel={t("cancel")}
        tone="danger"
        pending={retire.isPending}
        error={retireError}
        onConfirm={() => retiring && retire.mutate({ id: retiring.id }, { onSuccess: () => (setRetiring(null), setNotice(t("retired"))) })}
      />
    </section>
  );
}

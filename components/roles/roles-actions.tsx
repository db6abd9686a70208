"use client";

import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";

import { RoleEditorDialog } from "@/components/roles/role-editor-dialog";
import { SuccessNotice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { requiredContext } from "@/components/ui/required-context";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import type { RoleInput } from "@/lib/auth/permissions";
import { createRole, retireRole, updateRole } from "@/lib/roles/requests";
import type { PermissionCatalogue, RoleDto } from "@/lib/roles/types";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

/*
 * What an admin does on /admin/roles, around the roles the page draws on the server: the editor (a new role or a
 * custom one), the retire confirmation and the last success. The page's buttons are islands (NewRoleButton,
 * RoleCardActions) that ask this provider; after a save or a retire the server draws the roles again.
 */

interface RolesActionsValue {
  edit: (role: RoleDto | "new") => void;
  retire: (role: RoleDto) => void;
  notice: string | null;
}

const [RolesActionsProvider, useRolesActions] = requiredContext<RolesActionsValue>("RolesActions");

export function RolesActions({ catalogue, children }: { catalogue: PermissionCatalogue; children: ReactNode }) {
  const t = useTranslations("roles");
  const create = useRefreshingRequest(createRole);
  const update = useRefreshingRequest(updateRole);
  const retire = useRefreshingRequest(retireRole);
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
  const value: RolesActionsValue = {
    edit: (next) => {
      create.reset();
      update.reset();
      setNotice(null);
      setEditing(next);
    },
    retire: (role) => {
      retire.reset();
      setNotice(null);
      setRetiring(role);
    },
    notice,
  };
  const retireError = retire.error
    ? retire.error instanceof ApiRequestError && retire.error.code === "conflict"
      ? retire.error.message
      : t("failed", { message: retire.error.message })
    : null;

  return (
    <RolesActionsProvider value={value}>
      {children}
      <RoleEditorDialog
        key={editing === null ? "closed" : editing === "new" ? "new" : editing.id}
        role={editing === "new" ? null : editing}
        catalogue={catalogue}
        open={editing !== null}
        onOpenChange={(open) => (open ? undefined : setEditing(null))}
        onSave={save}
        pending={saving.isPending}
        error={saving.error}
      />
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
    </RolesActionsProvider>
  );
}

/** The last success (saved, retired), where the page puts it: above the roles. */
export function RolesNotice() {
  const { notice } = useRolesActions();
  return <SuccessNotice>{notice}</SuccessNotice>;
}

/** The page's main action, beside its title. */
export function NewRoleButton() {
  const t = useTranslations("roles");
  const { edit } = useRolesActions();
  return <Button onClick={() => edit("new")}>{t("create")}</Button>;
}

/** A custom role's edit and retire buttons, at the foot of its card. */
export function RoleCardActions({ role, label }: { role: RoleDto; label: string }) {
  const t = useTranslations("roles");
  const { edit, retire } = useRolesActions();
  return (
    <div className="mt-4 flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => edit(role)} aria-label={`${t("edit")}: ${label}`}>
        {t("edit")}
      </Button>
      <Button variant="secondary" onClick={() => retire(role)} aria-label={`${t("retire")}: ${label}`}>
        {t("retire")}
      </Button>
    </div>
  );
}

"use client";

import { useTranslations } from "next-intl";

import { RolePickerDialog } from "@/components/staff/role-picker-dialog";
import { StaffConnectionsDialog } from "@/components/staff/staff-connections-dialog";
import { StaffSessionsDialog } from "@/components/staff/staff-sessions-dialog";
import { StaffTable } from "@/components/staff/staff-table";
import { useErrorReason } from "@/components/staff/use-error-reason";
import { useStaffActions, type StaffActions } from "@/components/staff/use-staff-actions";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { QueryView } from "@/components/ui/query-view";
import type { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { useStaffQuery } from "@/lib/staff/hooks";
import { permissionsLost } from "@/lib/staff/rules";
import type { RoleChoice } from "@/lib/staff/types";

/*
 * The staff list and what an admin does to it: the last action's outcome above the table, the table with its
 * row actions, the role picker (every built-in and custom role), and the dialogs that ask before taking access away
 * or resetting a member's second factors.
 */
export function StaffAdmin({
  currentUserId,
  roles,
  ssoConfigured,
}: {
  currentUserId: string;
  roles: readonly RoleChoice[];
  ssoConfigured: boolean;
}) {
  const t = useTranslations("staff");
  const tCommon = useTranslations("common");
  const query = useStaffQuery();
  const actions = useStaffActions(roles);
  const reason = useErrorReason();
  const { confirming, resetting, update, resetFactors } = actions;

  const describe = (error: ApiRequestError | null) =>
    error ? (error.code === "conflict" ? t("actions.lastAdmin") : t("actions.failed", { message: reason(error) })) : null;
  const confirmKind = confirming?.change.disabled ? "disable" : "demote";
  const nameOf = (id: string | undefined) => query.data?.staff.find((member) => member.id === id)?.name ?? "";
  const newRole = roles.find((role) => role.id === confirming?.change.role);
  const confirmValues = {
    name: confirming?.user.name ?? "",
    email: confirming?.user.email ?? "",
    role: newRole ? (newRole.customName ?? t(`roles.${newRole.id}`)) : "",
    count: confirming?.change.role ? permissionsLost(roles, confirming.user.role, confirming.change.role).length : 0,
  };

  return (
    <>
      <div aria-live="polite">
        <StaffNotice actions={actions} describe={describe} nameOf={nameOf} />
      </div>
      <QueryView query={query} failed={t("loadFailed")} retryLabel={tCommon("retry")} loading={tCommon("loading")}>
        {(data) => (
          <StaffTable
            staff={data.staff}
            currentUserId={currentUserId}
            pendingId={actions.pendingId}
            ssoConfigured={ssoConfigured}
            {...actions.rowActions}
          />
        )}
      </QueryView>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => (open ? undefined : actions.cancelConfirm())}
        title={t(`confirm.${confirmKind}.title`, confirmValues)}
        description={t(`confirm.${confirmKind}.body`, confirmValues)}
        confirmLabel={t(`confirm.${confirmKind}.confirm`)}
        cancelLabel={t("confirm.cancel")}
        pending={update.isPending}
        error={confirming ? describe(update.error) : null}
        onConfirm={actions.confirmChange}
      />
      <ConfirmDialog
        open={resetting !== null}
        onOpenChange={(open) => (open ? undefined : actions.cancelReset())}
        title={t("factors.confirmTitle", { name: resetting?.name ?? "" })}
        description={t("factors.confirmBody", { name: resetting?.name ?? "", email: resetting?.email ?? "" })}
        confirmLabel={t("factors.confirm")}
        cancelLabel={t("confirm.cancel")}
        pending={resetFactors.isPending}
        error={resetFactors.error ? t("factors.failed", { message: reason(resetFactors.error) }) : null}
        onConfirm={actions.confirmReset}
      />
      <RolePickerDialog
        member={actions.picking}
        roles={roles}
        pending={update.isPending}
        error={actions.picking ? describe(update.error) : null}
        onChoose={actions.chooseRole}
        onOpenChange={(open) => (open ? undefined : actions.closePicker())}
      />
      <StaffSessionsDialog
        member={actions.sessionsOf}
        self={actions.sessionsOf?.id === currentUserId}
        onOpenChange={(open) => (open ? undefined : actions.closeSessions())}
      />
      <StaffConnectionsDialog member={actions.connectionsOf} onOpenChange={(open) => (open ? undefined : actions.closeConnections())} />
    </>
  );
}

/** The outcome of the last action: a failure first, else what succeeded. */
function StaffNotice({
  actions,
  describe,
  nameOf,
}: {
  actions: StaffActions;
  describe: (error: ApiRequestError | null) => string | null;
  nameOf: (id: string | undefined) => string;
}) {
  const t = useTranslations("staff");
  const reason = useErrorReason();
  const { confirming, update, unlock, ssoOnly, unlocked, reset } = actions;
  if (!confirming && update.error) return <Alert tone="error">{describe(update.error)}</Alert>;
  if (unlock.error) return <Alert tone="error">{t("unlock.failed", { message: reason(unlock.error) })}</Alert>;
  if (ssoOnly.error) return <Alert tone="error">{t("sso.failed", { message: reason(ssoOnly.error) })}</Alert>;
  if (unlocked) return <Alert tone="success">{t("unlock.done", { name: unlocked })}</Alert>;
  if (reset) return <Alert tone="success">{t("factors.done", { name: reset.name, count: reset.removed })}</Alert>;
  if (ssoOnly.data && ssoOnly.variables) {
    return <Alert tone="success">{t(ssoOnly.variables.ssoOnly ? "sso.on" : "sso.off", { name: nameOf(ssoOnly.variables.id) })}</Alert>;
  }
  return null;
}

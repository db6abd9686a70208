"use client";

import { useTranslations } from "next-intl";
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from "react";

import { RolePickerDialog } from "@/components/staff/role-picker-dialog";
import type { StaffRowHandlers } from "@/components/staff/staff-row-actions";
import { useErrorReason } from "@/components/staff/use-error-reason";
import { useStaffActions, type StaffActions } from "@/components/staff/use-staff-actions";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { requiredContext } from "@/components/ui/required-context";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { permissionsLost } from "@/lib/staff/rules";
import type { RoleChoice } from "@/lib/staff/types";

// A member's sessions and connections are read when their dialog opens: its code, and react-query with it (its own
// provider, components/ui/query-provider.tsx), load then, so the page's first load carries no client cache.
const withQueries = <Props extends object>(load: Promise<ComponentType<Props>>) =>
  Promise.all([load, import("@/components/ui/query-provider")]).then(([Component, { withQueryProvider }]) => ({
    default: withQueryProvider(Component),
  }));
const StaffSessionsDialog = lazy(() => withQueries(import("./staff-sessions-dialog").then((module) => module.StaffSessionsDialog)));
const StaffConnectionsDialog = lazy(() =>
  withQueries(import("./staff-connections-dialog").then((module) => module.StaffConnectionsDialog)),
);

/*
 * What an admin does to the staff list, around the list the page draws on the server: the last action's outcome
 * (StaffNotice, where the page puts it), each row's buttons (StaffRowActions, islands in the server's rows, asking
 * this provider), the role picker (every built-in and custom role), and the dialogs that ask before taking access
 * away or resetting a member's second factors. After each request the server draws the list again.
 */

interface StaffAdminValue {
  actions: StaffActions;
  describe: (error: Error | null) => string | null;
}

const [StaffAdminProvider, useStaffAdmin] = requiredContext<StaffAdminValue>("StaffAdmin");

/** A row's buttons' handlers, and whether the row's member is the one a request is running for. */
export function useStaffRow(memberId: string): StaffRowHandlers & { busy: boolean } {
  const { actions } = useStaffAdmin();
  return { ...actions.rowActions, busy: actions.pendingId === memberId };
}

export function StaffAdmin({
  currentUserId,
  roles,
  children,
}: {
  currentUserId: string;
  roles: readonly RoleChoice[];
  children: ReactNode;
}) {
  const t = useTranslations("staff");
  const actions = useStaffActions(roles);
  const reason = useErrorReason();
  const { confirming, resetting, update, resetFactors } = actions;
  // The lazily loaded dialogs stay mounted from their first opening on, so each closes through its own dialog.
  const [sessionsMounted, setSessionsMounted] = useState(false);
  const [connectionsMounted, setConnectionsMounted] = useState(false);
  if (actions.sessionsOf && !sessionsMounted) setSessionsMounted(true);
  if (actions.connectionsOf && !connectionsMounted) setConnectionsMounted(true);

  const describe = (error: Error | null) =>
    error
      ? error instanceof ApiRequestError && error.code === "conflict"
        ? t("actions.lastAdmin")
        : t("actions.failed", { message: reason(error) })
      : null;
  const confirmKind = confirming?.change.disabled ? "disable" : "demote";
  const newRole = roles.find((role) => role.id === confirming?.change.role);
  const confirmValues = {
    name: confirming?.user.name ?? "",
    email: confirming?.user.email ?? "",
    role: newRole ? (newRole.customName ?? t(`roles.${newRole.id}`)) : "",
    count: confirming?.change.role ? permissionsLost(roles, confirming.user.role, confirming.change.role).length : 0,
  };

  return (
    <StaffAdminProvider value={{ actions, describe }}>
      {children}
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
      <Suspense fallback={null}>
        {sessionsMounted ? (
          <StaffSessionsDialog
            member={actions.sessionsOf}
            self={actions.sessionsOf?.id === currentUserId}
            onOpenChange={(open) => (open ? undefined : actions.closeSessions())}
          />
        ) : null}
        {connectionsMounted ? (
          <StaffConnectionsDialog member={actions.connectionsOf} onOpenChange={(open) => (open ? undefined : actions.closeConnections())} />
        ) : null}
      </Suspense>
    </StaffAdminProvider>
  );
}

/** The outcome of the last action, where the page puts it (above the table): a failure first, else what succeeded. */
export function StaffNotice() {
  const t = useTranslations("staff");
  const reason = useErrorReason();
  const { actions, describe } = useStaffAdmin();
  const { confirming, update, unlock, ssoOnly, ssoSet, unlocked, reset } = actions;
  const notice = (() => {
    if (!confirming && update.error) return <Alert tone="error">{describe(update.error)}</Alert>;
    if (unlock.error) return <Alert tone="error">{t("unlock.failed", { message: reason(unlock.error) })}</Alert>;
    if (ssoOnly.error) return <Alert tone="error">{t("sso.failed", { message: reason(ssoOnly.error) })}</Alert>;
    if (unlocked) return <Alert tone="success">{t("unlock.done", { name: unlocked })}</Alert>;
    if (reset) return <Alert tone="success">{t("factors.done", { name: reset.name, count: reset.removed })}</Alert>;
    if (ssoSet) return <Alert tone="success">{t(ssoSet.on ? "sso.on" : "sso.off", { name: ssoSet.name })}</Alert>;
    return null;
  })();
  return <div aria-live="polite">{notice}</div>;
}

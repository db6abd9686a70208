"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { InviteStaffDialog } from "@/components/staff/invite-staff-dialog";
import { useResetStaffFactorsMutation, useSetStaffSsoOnlyMutation } from "@/components/staff/staff-security-queries";
import { StaffSessionsDialog } from "@/components/staff/staff-sessions-dialog";
import { StaffTable } from "@/components/staff/staff-table";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { useStaffQuery, useUnlockStaffSignInMutation, useUpdateStaffMutation } from "@/lib/staff/hooks";
import type { UpdateStaffInput } from "@/lib/staff/validation";
import type { StaffListEntry } from "@/lib/staff/types";

// Taking access away asks first; giving it (re-enable, promote) and unlocking act at once.
const needsConfirmation = (user: StaffListEntry, change: UpdateStaffInput) =>
  change.disabled === true || (user.role === "admin" && change.role === "analyst");

export function StaffPageClient({
  currentUserId,
  customRoles,
  ssoConfigured = false,
}: {
  currentUserId: string;
  customRoles: ReadonlyArray<{ id: string; name: string }>;
  /** Single sign-on is configured: each member can be set to sign in through it only. */
  ssoConfigured?: boolean;
}) {
  const t = useTranslations("staff");
  const tCommon = useTranslations("common");
  const query = useStaffQuery();
  const update = useUpdateStaffMutation();
  const unlock = useUnlockStaffSignInMutation();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ user: StaffListEntry; change: UpdateStaffInput } | null>(null);
  const [unlocked, setUnlocked] = useState<string | null>(null);
  const [sessionsOf, setSessionsOf] = useState<StaffListEntry | null>(null);
  // The reset asks first; it needs a step-up, which the step-up dialog asks for on top of this one.
  const [resetting, setResetting] = useState<StaffListEntry | null>(null);
  const [reset, setReset] = useState<{ name: string; removed: number } | null>(null);
  const resetFactors = useResetStaffFactorsMutation();
  const ssoOnly = useSetStaffSsoOnlyMutation();

  const describe = (error: ApiRequestError | null) =>
    error ? (error.code === "conflict" ? t("actions.lastAdmin") : t("actions.failed", { message: error.message })) : null;

  function clearNotices() {
    setUnlocked(null);
    setReset(null);
    ssoOnly.reset();
  }

  function apply(user: StaffListEntry, change: UpdateStaffInput) {
    setPendingId(user.id);
    clearNotices();
    update.mutate({ id: user.id, change }, { onSuccess: () => setConfirming(null), onSettled: () => setPendingId(null) });
  }

  const confirmKind = confirming?.change.disabled ? "disable" : "demote";

  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">{t("intro")}</p>
        </div>
        <InviteStaffDialog customRoles={customRoles} />
      </div>
      <div aria-live="polite">
        {!confirming && update.error ? (
          <Alert tone="error">{describe(update.error)}</Alert>
        ) : unlock.error ? (
          <Alert tone="error">{t("unlock.failed", { message: unlock.error.message })}</Alert>
        ) : ssoOnly.error ? (
          <Alert tone="error">{t("sso.failed", { message: ssoOnly.error.message })}</Alert>
        ) : unlocked ? (
          <Alert tone="success">{t("unlock.done", { name: unlocked })}</Alert>
        ) : reset ? (
          <Alert tone="success">{t("factors.done", { name: reset.name, count: reset.removed })}</Alert>
        ) : ssoOnly.data && ssoOnly.variables ? (
          <Alert tone="success">
            {t(ssoOnly.variables.ssoOnly ? "sso.on" : "sso.off", {
              name: query.data?.staff.find((member) => member.id === ssoOnly.variables?.id)?.name ?? "",
            })}
          </Alert>
        ) : null}
      </div>
      {query.data ? (
        <StaffTable
          staff={query.data.staff}
          currentUserId={currentUserId}
          pendingId={pendingId}
          onChange={(user, change) => {
            if (!needsConfirmation(user, change)) return apply(user, change);
            update.reset();
            setConfirming({ user, change });
          }}
          ssoConfigured={ssoConfigured}
          onUnlock={(user) => {
            setPendingId(user.id);
            clearNotices();
            unlock.mutate({ id: user.id }, { onSuccess: () => setUnlocked(user.name), onSettled: () => setPendingId(null) });
          }}
          onSessions={setSessionsOf}
          onResetFactors={(user) => {
            resetFactors.reset();
            setResetting(user);
          }}
          onSsoOnly={(user, next) => {
            setPendingId(user.id);
            clearNotices();
            ssoOnly.mutate({ id: user.id, ssoOnly: next }, { onSettled: () => setPendingId(null) });
          }}
        />
      ) : query.isError ? (
        <Alert
          tone="error"
          action={
            <Button variant="secondary" onClick={() => void query.refetch()}>
              {tCommon("retry")}
            </Button>
          }
        >
          {t("loadFailed")}
        </Alert>
      ) : (
        <p className="text-sm text-slate-600">{tCommon("loading")}</p>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => (open ? undefined : setConfirming(null))}
        title={t(`confirm.${confirmKind}.title`, { name: confirming?.user.name ?? "" })}
        description={t(`confirm.${confirmKind}.body`, { name: confirming?.user.name ?? "", email: confirming?.user.email ?? "" })}
        confirmLabel={t(`confirm.${confirmKind}.confirm`)}
        cancelLabel={t("confirm.cancel")}
        pending={update.isPending}
        error={confirming ? describe(update.error) : null}
        onConfirm={() => confirming && apply(confirming.user, confirming.change)}
      />
      <ConfirmDialog
        open={resetting !== null}
        onOpenChange={(open) => (open ? undefined : setResetting(null))}
        title={t("factors.confirmTitle", { name: resetting?.name ?? "" })}
        description={t("factors.confirmBody", { name: resetting?.name ?? "", email: resetting?.email ?? "" })}
        confirmLabel={t("factors.confirm")}
        cancelLabel={t("confirm.cancel")}
        pending={resetFactors.isPending}
        error={resetFactors.error ? t("factors.failed", { message: resetFactors.error.message }) : null}
        onConfirm={() => {
          if (!resetting) return;
          const member = resetting;
          clearNotices();
          resetFactors.mutate(
            { id: member.id },
            {
              onSuccess: ({ removed }) => {
                setReset({ name: member.name, removed });
                setResetting(null);
              },
            },
          );
        }}
      />
      <StaffSessionsDialog
        member={sessionsOf}
        self={sessionsOf?.id === currentUserId}
        onOpenChange={(open) => (open ? undefined : setSessionsOf(null))}
      />
    </section>
  );
}

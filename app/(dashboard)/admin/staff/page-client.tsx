"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { InviteStaffDialog } from "@/components/staff/invite-staff-dialog";
import { StaffTable } from "@/components/staff/staff-table";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { useStaffQuery, useUnlockStaffSignInMutation, useUpdateStaffMutation } from "@/lib/staff/queries";
import type { UpdateStaffInput } from "@/lib/staff/schemas";
import type { StaffListEntry } from "@/lib/staff/types";

// Taking access away asks first; giving it (re-enable, promote) and unlocking act at once.
const needsConfirmation = (user: StaffListEntry, change: UpdateStaffInput) =>
  change.disabled === true || (user.role === "admin" && change.role === "analyst");

export function StaffPageClient({
  currentUserId,
  customRoles,
}: {
  currentUserId: string;
  customRoles: ReadonlyArray<{ id: string; name: string }>;
}) {
  const t = useTranslations("staff");
  const tCommon = useTranslations("common");
  const query = useStaffQuery();
  const update = useUpdateStaffMutation();
  const unlock = useUnlockStaffSignInMutation();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ user: StaffListEntry; change: UpdateStaffInput } | null>(null);
  const [unlocked, setUnlocked] = useState<string | null>(null);

  const describe = (error: ApiRequestError | null) =>
    error ? (error.code === "conflict" ? t("actions.lastAdmin") : t("actions.failed", { message: error.message })) : null;

  function apply(user: StaffListEntry, change: UpdateStaffInput) {
    setPendingId(user.id);
    setUnlocked(null);
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
        ) : unlocked ? (
          <Alert tone="success">{t("unlock.done", { name: unlocked })}</Alert>
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
          onUnlock={(user) => {
            setPendingId(user.id);
            setUnlocked(null);
            unlock.mutate({ id: user.id }, { onSuccess: () => setUnlocked(user.name), onSettled: () => setPendingId(null) });
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
    </section>
  );
}

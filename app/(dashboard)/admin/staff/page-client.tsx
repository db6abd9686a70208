"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { InviteStaffDialog } from "@/components/staff/invite-staff-dialog";
import { StaffTable } from "@/components/staff/staff-table";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useStaffQuery, useUpdateStaffMutation } from "@/lib/queries/staff";

export function StaffPageClient({ currentUserId }: { currentUserId: string }) {
  const t = useTranslations("staff");
  const tCommon = useTranslations("common");
  const query = useStaffQuery();
  const update = useUpdateStaffMutation();
  const [pendingId, setPendingId] = useState<string | null>(null);

  const updateError = update.error
    ? update.error.code === "conflict"
      ? t("actions.lastAdmin")
      : t("actions.failed", { message: update.error.message })
    : null;

  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">{t("intro")}</p>
        </div>
        <InviteStaffDialog />
      </div>
      <div aria-live="polite">{updateError ? <Alert tone="error">{updateError}</Alert> : null}</div>
      {query.data ? (
        <StaffTable
          staff={query.data.staff}
          currentUserId={currentUserId}
          pendingId={pendingId}
          onChange={(user, change) => {
            setPendingId(user.id);
            update.mutate({ id: user.id, change }, { onSettled: () => setPendingId(null) });
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
    </section>
  );
}

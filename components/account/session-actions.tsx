"use client";

import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { requiredContext } from "@/components/ui/required-context";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { endOtherSessions, endSession } from "@/lib/account/requests";

/*
 * Ending the member's sessions, around the list the page draws on the server (./sessions-section.tsx): one device's
 * (its row's button, EndSessionButton) or every other one (EndOtherSessionsButton, which asks first), the last
 * outcome (SessionsNotice, where the section puts it), held by one provider. After either, the page is drawn again.
 */

interface SessionActionsValue {
  end: (session: { id: string; device: string }) => void;
  /** Which device's session is being ended. */
  pendingId: string | null;
  askEndOthers: () => void;
  notice: ReactNode;
}

const [SessionActionsProvider, useSessionActions] = requiredContext<SessionActionsValue>("SessionActions");

export function SessionActions({ otherCount, children }: { otherCount: number; children: ReactNode }) {
  const t = useTranslations("account.sessions");
  const endOne = useRefreshingRequest(endSession);
  const endOthers = useRefreshingRequest(endOtherSessions);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const value: SessionActionsValue = {
    end: ({ id, device }) => {
      setPendingId(id);
      setDone(null);
      endOne.mutate({ id }, { onSuccess: () => setDone(t("ended", { device })), onSettled: () => setPendingId(null) });
    },
    pendingId,
    askEndOthers: () => {
      endOthers.reset();
      setDone(null);
      setConfirmAll(true);
    },
    notice: endOne.error ? <Alert tone="error">{t("failed")}</Alert> : done ? <Alert tone="success">{done}</Alert> : null,
  };

  return (
    <SessionActionsProvider value={value}>
      {children}
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title={t("confirmAll.title")}
        description={t("confirmAll.body", { count: otherCount })}
        confirmLabel={t("confirmAll.confirm")}
        cancelLabel={t("confirmAll.cancel")}
        pending={endOthers.isPending}
        error={endOthers.error ? t("failed") : null}
        onConfirm={() =>
          endOthers.mutate(undefined, {
            onSuccess: ({ ended }) => {
              setConfirmAll(false);
              setDone(t("endedAll", { count: ended }));
            },
          })
        }
      />
    </SessionActionsProvider>
  );
}

/** The last outcome, a failure or what was ended, where the section puts it (above the list). */
export function SessionsNotice() {
  return <div aria-live="polite">{useSessionActions().notice}</div>;
}

/** A device's button that ends its sessions. */
export function EndSessionButton({ session }: { session: { id: string; device: string } }) {
  const t = useTranslations("account.sessions");
  const { end, pendingId } = useSessionActions();
  return (
    <Button
      variant="secondary"
      pending={pendingId === session.id}
      aria-label={t("endLabel", { device: session.device })}
      onClick={() => end(session)}
    >
      {t("end")}
    </Button>
  );
}

/** Ends every session but this one, once confirmed. */
export function EndOtherSessionsButton() {
  const t = useTranslations("account.sessions");
  const { askEndOthers } = useSessionActions();
  return (
    <Button variant="danger" onClick={askEndOthers}>
      {t("endAll")}
    </Button>
  );
}

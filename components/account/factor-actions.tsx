"use client";

import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";

import { SuccessNotice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { requiredContext } from "@/components/ui/required-context";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { removeFactor } from "@/lib/account/requests";
import type { FactorDto } from "@/lib/account/types";
import { refusalOf } from "@/lib/shared/api-client/api-request";

/*
 * Removing one of the member's second factors, around the list the page draws on the server (./factor-list.tsx):
 * the confirmation and the last removal, held by one provider; each row's button (RemoveFactorButton) and the
 * notice's place (FactorNotice) are islands asking it. The server may want a fresh second factor first (401
 * step_up_required), which apiRequest asks for in place before the removal goes through. Once removed, the page is
 * drawn again.
 */

type Factor = Pick<FactorDto, "id" | "label">;

interface FactorActionsValue {
  confirm: (factor: Factor) => void;
  removed: string | null;
}

const [FactorActionsProvider, useFactorActions] = requiredContext<FactorActionsValue>("FactorActions");

export function FactorActions({ count, children }: { count: number; children: ReactNode }) {
  const t = useTranslations("account.factors");
  const remove = useRefreshingRequest(removeFactor);
  const [confirming, setConfirming] = useState<Factor | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const refusal = refusalOf(remove.error);

  function confirm(factor: Factor) {
    remove.reset();
    setRemoved(null);
    setConfirming(factor);
  }

  function onConfirm() {
    if (!confirming) return;
    const { id, label } = confirming;
    remove.mutate(
      { id },
      {
        onSuccess: () => {
          setConfirming(null);
          setRemoved(label);
        },
      },
    );
  }

  return (
    <FactorActionsProvider value={{ confirm, removed }}>
      {children}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => (open ? undefined : setConfirming(null))}
        title={t("confirmRemove.title", { label: confirming?.label ?? "" })}
        description={t(count === 1 ? "confirmRemove.bodyLast" : "confirmRemove.body")}
        confirmLabel={t("confirmRemove.confirm")}
        cancelLabel={t("confirmRemove.cancel")}
        pending={remove.isPending}
        error={remove.error ? t(refusal?.code === "step_up_required" ? "removeStepUp" : "removeFailed") : null}
        onConfirm={onConfirm}
      />
    </FactorActionsProvider>
  );
}

/** The last removal, where the list puts it (above it). */
export function FactorNotice() {
  const t = useTranslations("account.factors");
  const { removed } = useFactorActions();
  return <SuccessNotice>{removed ? t("removed", { label: removed }) : null}</SuccessNotice>;
}

/** A factor's remove button, at the end of its row. */
export function RemoveFactorButton({ factor }: { factor: Factor }) {
  const t = useTranslations("account.factors");
  const { confirm } = useFactorActions();
  return (
    <Button variant="secondary" aria-label={t("removeLabel", { label: factor.label })} onClick={() => confirm(factor)}>
      {t("remove")}
    </Button>
  );
}

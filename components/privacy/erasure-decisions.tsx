"use client";

import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";

import { SuccessNotice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { requiredContext } from "@/components/ui/required-context";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { postErasureDecision } from "@/lib/privacy/browser-requests";
import type { ErasureDto } from "@/lib/privacy/erasure";

import { useErasureErrorText } from "./erasure-error-text";
import { ResultView } from "./erasure-result";

/*
 * Deciding an erasure request, around the pending list the page draws on the server (./erasure-panel.tsx): one
 * provider holds the decision asked, its confirmation, and the last outcome (a cancellation's notice, or what a
 * confirmed erasure erased and kept), shown above the lists; each row's buttons (DecideErasureButtons) are an island
 * asking it. Confirming needs a fresh second factor, asked in place; every outcome, a refusal too, has the page drawn
 * again, and a 409 keeps the dialog open saying another member decided first.
 */

type Decision = "confirm" | "cancel";
type Pending = Pick<ErasureDto, "id" | "documentMasked" | "ownRequest">;

const [DecisionsProvider, useDecisions] = requiredContext<(erasure: Pending, decision: Decision) => void>("ErasureDecisions");

export function ErasureDecisions({ children }: { children: ReactNode }) {
  const t = useTranslations("erasure");
  const errorText = useErasureErrorText();
  const decide = useRefreshingRequest(postErasureDecision);
  const [asked, setAsked] = useState<{ erasure: Pending; decision: Decision } | null>(null);
  const [decided, setDecided] = useState<ErasureDto | null>(null);
  const dialog = asked?.decision === "cancel" ? "cancelDialog" : "confirmDialog";

  function ask(erasure: Pending, decision: Decision) {
    decide.reset();
    setAsked({ erasure, decision });
  }

  return (
    <DecisionsProvider value={ask}>
      <SuccessNotice>{decided?.state === "cancelled" ? t("cancelled", { document: decided.documentMasked }) : null}</SuccessNotice>
      <div aria-live="polite">{decided?.result ? <ResultView erasure={decided} result={decided.result} /> : null}</div>
      {children}
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => (open ? undefined : setAsked(null))}
        title={t(`${dialog}.title`)}
        description={t(`${dialog}.body`, { document: asked?.erasure.documentMasked ?? "" })}
        confirmLabel={t(`${dialog}.confirm`)}
        cancelLabel={t(`${dialog}.back`)}
        tone={asked?.decision === "cancel" ? "primary" : "danger"}
        pending={decide.isPending}
        error={decide.error ? errorText(decide.error, "decisionConflict") : null}
        onConfirm={() => {
          if (!asked) return;
          decide.mutate(
            { id: asked.erasure.id, decision: asked.decision },
            {
              onSuccess: ({ erasure }) => {
                setAsked(null);
                setDecided(erasure);
              },
            },
          );
        }}
      />
    </DecisionsProvider>
  );
}

/** A pending request's Confirm and Cancel; the requester's own Confirm is disabled, and the row says why. */
export function DecideErasureButtons({ erasure, ownRequestNote }: { erasure: Pending; ownRequestNote: string }) {
  const t = useTranslations("erasure.pending");
  const ask = useDecisions();
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="danger"
        disabled={erasure.ownRequest}
        aria-label={t("confirmLabel", { document: erasure.documentMasked })}
        aria-describedby={erasure.ownRequest ? ownRequestNote : undefined}
        onClick={() => ask(erasure, "confirm")}
      >
        {t("confirm")}
      </Button>
      <Button
        variant="secondary"
        aria-label={t("cancelLabel", { document: erasure.documentMasked })}
        onClick={() => ask(erasure, "cancel")}
      >
        {t("cancel")}
      </Button>
    </div>
  );
}

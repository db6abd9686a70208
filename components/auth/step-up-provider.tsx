"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";

import type { StepUpMethod } from "@/lib/auth/types";
import { setStepUpHandler, type StepUpOutcome } from "@/lib/shared/api-client/step-up-registry";

import type { StepUpAsking, StepUpDialog as StepUpDialogType } from "./step-up-dialog";

/*
 * The step-up dialog, mounted once for the signed-in shell (app/providers.tsx). When a call through the API
 * client is refused with `step_up_required`, its registry (`requestStepUp`, lib/shared/api-client/step-up-registry.ts)
 * asks this provider; the dialog opens on top of whatever the member was doing (a form keeps everything typed,
 * its request waits), asks for the second factor, and on success the waiting request is sent again. Cancelling (the button,
 * Escape) fails that request with a refusal in the member's language.
 *
 * The dialog's code (./step-up-dialog.tsx) is loaded on the first question, alongside the member's methods:
 * both are there before the dialog opens, so its field is there for the dialog's first focus. A dialog that
 * cannot be loaded answers "not verified", and the caller keeps the original refusal. The methods' request loads with
 * them: the shell registers at start without the API client, which a page that sends nothing never needs.
 */

const loadDialog = () => import("./step-up-dialog").then((module) => module.StepUpDialog);
const fetchMethods = (): Promise<StepUpMethod[] | null> =>
  import("@/lib/auth/hooks").then((module) => module.fetchStepUpMethods()).catch(() => null);

export function StepUpProvider({ children }: { children: ReactNode }) {
  const [asking, setAsking] = useState<StepUpAsking | null>(null);
  // The dialog from the first question on: a page that never asks, like the password change outside the shell,
  // needs neither its code nor its messages.
  const [StepUpDialog, setStepUpDialog] = useState<typeof StepUpDialogType | null>(null);
  const asked = useRef(0);

  // The question not answered yet (the registry asks one at a time). Left open when the provider goes away (the
  // shell unmounting), it is answered "not verified", or the registry would hand its never-settling promise to
  // every later step-up.
  const unanswered = useRef<((outcome: StepUpOutcome) => void) | null>(null);

  useEffect(() => {
    const remove = setStepUpHandler(async () => {
      const [methods, dialog] = await Promise.all([fetchMethods(), loadDialog()]);
      return new Promise<StepUpOutcome>((resolve) => {
        unanswered.current = resolve;
        setStepUpDialog(() => dialog);
        setAsking({ id: (asked.current += 1), resolve, methods });
      });
    });
    return () => {
      remove();
      unanswered.current?.({ verified: false });
      unanswered.current = null;
    };
  }, []);

  function finish(outcome: StepUpOutcome) {
    unanswered.current = null;
    asking?.resolve(outcome);
    setAsking(null);
  }

  return (
    <>
      {children}
      {StepUpDialog ? (
        <StepUpDialog
          asking={asking}
          finish={finish}
          onReload={async () => {
            const methods = await fetchMethods();
            setAsking((current) => (current ? { ...current, methods } : current));
          }}
        />
      ) : null}
    </>
  );
}

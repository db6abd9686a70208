"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { useLazyDialog } from "@/components/ui/lazy-dialog";
import { hasPermission } from "@/lib/auth/has-permission";
import type { Permission } from "@/lib/auth/permissions";
import { caseHref } from "@/lib/cases/queue-context";
import type { CaseDetail } from "@/lib/cases/types";

import { useNeedsDocument } from "./case-template-facts";

/*
 * "Ask to verify again" on the case panel: the assignee (or a holder of cases.assign) has a new verification
 * created for the same document, linked to the case. When the provider shows this verification's document
 * masked, the analyst types the CPF (the server checks it matches before anything is created). The answer's
 * address and QR code are shown once, here, and kept nowhere else. The dialog's code (./reverification-form.tsx)
 * is loaded when its trigger is reached, not with the page.
 */

/** What the panel shows of re-verifications: the one the case waits for, and the action. */
export function Reverification({ detail, viewer }: { detail: CaseDetail; viewer: { id: string; permissions: readonly Permission[] } }) {
  const t = useTranslations("cases.reverification");
  const may =
    detail.status === "open" &&
    hasPermission(viewer, "verifications.reverify") &&
    (detail.assignee?.id === viewer.id || hasPermission(viewer, "cases.assign"));
  const waiting = detail.reverifications?.find((item) => item.publicId === detail.waitingForReverification);
  return (
    <div className="space-y-2">
      {waiting ? (
        <p className="rounded-md bg-amber-50 px-2 py-1 text-sm text-amber-900" role="status" data-testid="case-reverification-waiting">
          <span className="font-medium">{t("waiting")}</span>{" "}
          <a className="text-brand-800 underline underline-offset-2" href={caseHref(waiting.publicId, "")}>
            {t("waitingStatus", { publicId: waiting.publicId, status: waiting.status ?? t("notArrived") })}
          </a>
        </p>
      ) : null}
      {may ? <ReverificationAction publicId={detail.publicId} /> : null}
    </div>
  );
}

const loadDialog = () => import("./reverification-form").then((module) => module.ReverificationDialog);

function ReverificationAction({ publicId }: { publicId: string }) {
  const t = useTranslations("cases.reverification");
  const dialog = useLazyDialog(loadDialog);
  // The document is typed only when the provider itself masks it (the page's facts: ./case-template-facts.tsx).
  const needsDocument = useNeedsDocument();
  const ReverificationDialog = dialog.Dialog;
  return (
    <>
      <Button variant="secondary" data-testid="case-reverify" {...dialog.trigger}>
        {t("action")}
      </Button>
      {ReverificationDialog ? (
        <ReverificationDialog publicId={publicId} needsDocument={needsDocument} open={dialog.open} onOpenChange={dialog.setOpen} />
      ) : null}
    </>
  );
}

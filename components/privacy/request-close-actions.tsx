"use client";

import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { requiredContext } from "@/components/ui/required-context";

import { CloseDialog, type ClosingRequest } from "./request-close-dialog";

/*
 * Closing a titular request, around the open list the page draws on the server (./request-queue.tsx): one provider
 * holds the request being closed and its dialog; each row's button (CloseRequestButton) is an island asking it. The
 * dialog's request has the page drawn again (./request-close-dialog.tsx).
 */

const [CloseActionsProvider, useCloseActions] = requiredContext<(request: ClosingRequest) => void>("RequestCloseActions");

export function RequestCloseActions({ children }: { children: ReactNode }) {
  const [closing, setClosing] = useState<ClosingRequest | null>(null);
  return (
    <CloseActionsProvider value={setClosing}>
      {children}
      {closing ? <CloseDialog request={closing} onDone={() => setClosing(null)} /> : null}
    </CloseActionsProvider>
  );
}

export function CloseRequestButton({ request }: { request: ClosingRequest }) {
  const t = useTranslations("privacy.requests.open");
  const close = useCloseActions();
  return (
    <Button variant="secondary" aria-label={t("closeLabel", { document: request.documentMasked })} onClick={() => close(request)}>
      {t("close")}
    </Button>
  );
}

"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyableSecret } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { useRequestReverification } from "@/lib/cases/hooks";
import { caseHref } from "@/lib/cases/queue-context";
import type { ReverificationResponse } from "@/lib/cases/types";
import { cpfDigits, formatCpfPartial } from "@/lib/shared/cpf";
import { verificationKeys } from "@/lib/verifications/hooks";

/*
 * The "Ask to verify again" dialog (./reverification-dialog.tsx opens it; loaded when its trigger is reached).
 * `needsDocument`: the provider shows the document masked, so the analyst types the CPF.
 */

export function ReverificationDialog({
  publicId,
  needsDocument,
  open,
  onOpenChange,
}: {
  publicId: string;
  needsDocument: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations("cases.reverification");
  const [cpf, setCpf] = useState("");
  const [result, setResult] = useState<ReverificationResponse | null>(null);
  const request = useRequestReverification(publicId);
  const queryClient = useQueryClient();
  const error = request.error;
  const documentError = error?.fields.some((field) => field.startsWith("document")) ? error.message : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    request.mutate(needsDocument ? { document: { type: "cpf", number: cpfDigits(cpf) } } : {}, {
      onSuccess: (answer) => {
        setResult(answer);
        // The new verification is the same person's: the detail's "Same person" panel reads it again.
        void queryClient.invalidateQueries({ queryKey: verificationKeys.related(publicId) });
      },
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) {
          setResult(null);
          setCpf("");
          request.reset();
        }
      }}
      title={t("title")}
      description={t("intro")}
    >
      {result ? (
        <div className="space-y-4" data-testid="reverification-result">
          <Alert tone="success" title={t("created", { publicId: result.publicId, refId: result.refId })} />
          {result.url ? (
            <>
              <CopyableSecret id="reverification-address" label={t("address")} value={result.url} copyLabel={t("copy")} />
              {result.qrCode ? (
                // A data URL made on the server: no QR library in the browser. White margin for scanners.
                // eslint-disable-next-line @next/next/no-img-element
                <img
                  src={result.qrCode}
                  alt={t("qr")}
                  width={208}
                  height={208}
                  className="h-52 w-52 rounded-lg border border-slate-200 bg-white p-1"
                />
              ) : null}
            </>
          ) : (
            <Alert tone="info" title={t("noAddress")} />
          )}
          <a className="text-sm text-brand-800 underline underline-offset-2" href={caseHref(result.publicId, "")}>
            {t("openNew")}
          </a>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          {error && !documentError ? <Alert tone="error" title={error.message} /> : null}
          {needsDocument ? (
            <Field
              id="reverification-cpf"
              label={t("documentLabel")}
              hint={t("documentHint")}
              error={documentError}
              inputMode="numeric"
              autoComplete="off"
              placeholder="000.000.000-00"
              value={cpf}
              onChange={(event) => setCpf(formatCpfPartial(event.target.value))}
            />
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" pending={request.isPending} data-testid="reverification-submit">
              {t("submit")}
            </Button>
            {request.isPending ? (
              <span role="status" className="text-sm text-slate-700">
                {t("pending")}
              </span>
            ) : null}
          </div>
        </form>
      )}
    </Dialog>
  );
}

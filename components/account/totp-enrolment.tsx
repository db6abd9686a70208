"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";

import { Alert, SuccessNotice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton, SecretValue } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { startTotp, verifyTotp } from "@/lib/account/requests";
import type { FactorConfirmedResponse, TotpStartResponse } from "@/lib/account/types";
import { refusalOf } from "@/lib/shared/api-client/api-request";
import { useRequest } from "@/lib/shared/api-client/use-request";

/** The setup key in groups of four, as authenticator apps print it (spaces are ignored when typed in). */
export const groupSecret = (secret: string) =>
  secret
    .replace(/\s+/g, "")
    .match(/.{1,4}/g)
    ?.join(" ") ?? secret;

/** The service refused the code itself (told beside the field, not as a failure). */
const wrongCode = (error: Error | null) => {
  const refused = refusalOf(error);
  return refused?.code === "validation" && refused.fields.includes("code");
};

/*
 * An authenticator app in two steps: a name (the server makes an unconfirmed factor and its secret), then
 * the QR code or the setup key typed by hand, and the app's current code, which confirms it. Focus moves
 * to the second step when it appears, so a keyboard or screen reader user lands on it. Once confirmed, the page is
 * drawn again with the new factor listed.
 */
export function TotpEnrolment({ onConfirmed }: { onConfirmed: (result: FactorConfirmedResponse) => void }) {
  const t = useTranslations("account.totp");
  const start = useRequest(startTotp);
  const verify = useRefreshingRequest(verifyTotp);
  const [pending, setPending] = useState<(TotpStartResponse & { label: string }) | null>(null);
  const [labelError, setLabelError] = useState<string | undefined>();
  const [codeError, setCodeError] = useState<string | undefined>();
  const [added, setAdded] = useState<string | null>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const id = useId();

  useEffect(() => {
    if (pending) stepHeading.current?.focus();
  }, [pending]);

  function onStart(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const label = String(new FormData(event.currentTarget).get("label") ?? "").trim();
    setAdded(null);
    if (!label) return setLabelError(t("labelRequired"));
    setLabelError(undefined);
    start.mutate(
      { label },
      {
        onSuccess: (result) => setPending({ ...result, label }),
        onError: (error) => (refusalOf(error)?.fields.includes("label") ? setLabelError(t("labelInvalid")) : undefined),
      },
    );
  }

  function onVerify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!pending) return;
    const code = String(new FormData(event.currentTarget).get("code") ?? "").replace(/\s+/g, "");
    if (!/^\d{6}$/.test(code)) return setCodeError(t("codeFormat"));
    setCodeError(undefined);
    verify.mutate(
      { id: pending.id, code },
      {
        onSuccess: (result) => {
          setAdded(pending.label);
          setPending(null);
          onConfirmed(result);
        },
        onError: (error) => (wrongCode(error) ? setCodeError(t("wrongCode")) : undefined),
      },
    );
  }

  const failure = start.error && !refusalOf(start.error)?.fields.includes("label") ? start.error : null;
  const verifyFailure = verify.error && !wrongCode(verify.error) ? verify.error : null;

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {t("heading")}
      </h3>
      <SuccessNotice>{added ? t("added", { label: added }) : null}</SuccessNotice>
      {pending ? (
        <div className="space-y-4">
          <h4 ref={stepHeading} tabIndex={-1} className="text-sm font-semibold text-slate-900 focus:outline-none">
            {t("scanTitle", { label: pending.label })}
          </h4>
          <p className="text-sm text-slate-700">{t("scanBody")}</p>
          {/* A data: URL made by the server; next/image adds nothing for it. */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src={pending.qrDataUrl} alt={t("qrAlt")} width={200} height={200} className="h-48 w-48 rounded border border-slate-200" />
          <div>
            <label htmlFor={`${id}-secret`} className="block text-sm font-medium text-slate-800">
              {t("secret")}
            </label>
            <p className="text-xs text-slate-600">{t("secretHint")}</p>
            <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-start">
              <div className="flex-1 sm:max-w-sm">
                <SecretValue id={`${id}-secret`} value={groupSecret(pending.secret)} label={t("secret")} />
              </div>
              <CopyButton value={pending.secret} label={t("copySecret")} />
            </div>
          </div>
          <form onSubmit={onVerify} className="space-y-3" noValidate>
            <Field
              label={t("code")}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={7}
              required
              hint={t("codeHint")}
              error={codeError}
              className="max-w-xs"
            />
            <div aria-live="assertive">
              {verifyFailure ? <Alert tone="error">{t(refusalOf(verifyFailure)?.code === "conflict" ? "expired" : "failed")}</Alert> : null}
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" pending={verify.isPending}>
                {t("verify")}
              </Button>
              <Button
                variant="secondary"
                disabled={verify.isPending}
                onClick={() => {
                  setPending(null);
                  setCodeError(undefined);
                  verify.reset();
                }}
              >
                {t("cancel")}
              </Button>
            </div>
          </form>
        </div>
      ) : (
        <form onSubmit={onStart} className="space-y-3" noValidate>
          <Field label={t("label")} name="label" maxLength={60} required hint={t("labelHint")} error={labelError} className="max-w-sm" />
          <div aria-live="assertive">
            {failure ? <Alert tone="error">{t(refusalOf(failure)?.code === "conflict" ? "tooMany" : "startFailed")}</Alert> : null}
          </div>
          <Button type="submit" pending={start.isPending}>
            {t("start")}
          </Button>
        </form>
      )}
    </section>
  );
}

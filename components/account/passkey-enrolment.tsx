"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Alert, SuccessNotice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { addPasskey } from "@/lib/account/requests";
import type { FactorConfirmedResponse } from "@/lib/account/types";
import { passkeyProblemOf } from "@/lib/auth/passkey-errors";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

// The WebAuthn library loads when a passkey is added, not with the page (as the sign-in and step-up passkeys do).
const enrolPasskey = ({ label }: { label: string }) =>
  addPasskey(label, async (optionsJSON) => (await import("@simplewebauthn/browser")).startRegistration({ optionsJSON }));

/**
 * A passkey: a name, then the browser's own dialog (the device's screen lock or a security key). Once added, the page
 * is drawn again with the new factor listed.
 */
export function PasskeyEnrolment({ onConfirmed }: { onConfirmed: (result: FactorConfirmedResponse) => void }) {
  const t = useTranslations("account.passkey");
  const add = useRefreshingRequest(enrolPasskey);
  const [labelError, setLabelError] = useState<string | undefined>();
  const [added, setAdded] = useState<string | null>(null);
  const id = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const label = String(new FormData(form).get("label") ?? "").trim();
    setAdded(null);
    if (!label) return setLabelError(t("labelRequired"));
    setLabelError(undefined);
    add.mutate(
      { label },
      {
        onSuccess: (result) => {
          form.reset();
          setAdded(label);
          onConfirmed(result);
        },
        onError: (error) =>
          error instanceof ApiRequestError && error.fields.includes("label") ? setLabelError(t("labelInvalid")) : undefined,
      },
    );
  }

  const error = add.error;
  const message = !error
    ? null
    : error instanceof ApiRequestError
      ? error.fields.includes("label")
        ? null
        : t(error.code === "conflict" ? "tooMany" : "failed")
      : t(passkeyProblemOf(error));

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {t("heading")}
      </h3>
      <p className="text-sm text-slate-700">{t("body")}</p>
      <SuccessNotice>{added ? t("added", { label: added }) : null}</SuccessNotice>
      <form onSubmit={onSubmit} className="space-y-3" noValidate>
        <Field label={t("label")} name="label" maxLength={60} required hint={t("labelHint")} error={labelError} className="max-w-sm" />
        <div aria-live="assertive">{message ? <Alert tone="error">{message}</Alert> : null}</div>
        <Button type="submit" pending={add.isPending}>
          {t("start")}
        </Button>
      </form>
    </section>
  );
}

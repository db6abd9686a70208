"use client";

import { useTranslations } from "next-intl";

import type { SmsCheck } from "@/components/kyc/use-sms-check";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { formatPhonePartial } from "@/lib/shared/phone-rules";

/* The SMS check's first two steps, drawn from its state (use-sms-check.ts). */

/** The phone to send a code to; sending waits out the cooldown. */
export function SmsPhoneStep({ check }: { check: SmsCheck }) {
  const t = useTranslations("kyc.sms");
  const { send, secondsLeft, phoneError, sendMessage } = check;
  return (
    <form noValidate onSubmit={check.submitPhone} className="mt-4">
      <fieldset disabled={send.isPending} className="space-y-4">
        <legend className="sr-only">{t("title")}</legend>
        <Field
          id="sms-phone"
          name="phone"
          type="tel"
          label={t("phone")}
          hint={t("phoneHint")}
          value={check.phone}
          required
          autoComplete="off"
          inputMode="tel"
          className="max-w-xs"
          onChange={(event) => check.editPhone(formatPhonePartial(event.target.value))}
          error={phoneError ? t(`errors.phone.${phoneError}`) : undefined}
        />
        <Button type="submit" pending={send.isPending} disabled={secondsLeft > 0}>
          {send.isPending ? t("sending") : secondsLeft > 0 ? t("resendIn", { seconds: secondsLeft }) : t("send")}
        </Button>
      </fieldset>
      {sendMessage ? (
        <div className="mt-4">
          <Alert tone="error" title={t("failed")}>
            {sendMessage}
          </Alert>
        </div>
      ) : null}
    </form>
  );
}

/** The code the person reads out, with a resend once the cooldown has passed and a way back to the phone. */
export function SmsCodeStep({ check, phone, warning }: { check: SmsCheck; phone: string; warning?: "unknown_outcome" }) {
  const t = useTranslations("kyc.sms");
  const { send, validate, secondsLeft, codeError, sendMessage, validateMessage } = check;
  return (
    <div className="mt-4 space-y-4">
      {warning === "unknown_outcome" ? (
        <Alert tone="warning">{t("unknownOutcome")}</Alert>
      ) : (
        <Alert tone="info">{t("sentTo", { phone })}</Alert>
      )}
      <form noValidate onSubmit={check.submitCode}>
        <fieldset disabled={validate.isPending} className="space-y-4">
          <legend className="sr-only">{t("validate")}</legend>
          <Field
            id="sms-code"
            name="code"
            label={t("code")}
            hint={t("codeHint")}
            value={check.code}
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={16}
            className="max-w-[12rem]"
            onChange={(event) => check.editCode(event.target.value)}
            error={codeError ? (codeError === "wrong" ? t("wrongCode") : t(`errors.code.${codeError}`)) : undefined}
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" pending={validate.isPending}>
              {validate.isPending ? t("validating") : t("validate")}
            </Button>
            <Button variant="secondary" disabled={!check.canResend} pending={send.isPending} onClick={() => check.sendCode(phone)}>
              {secondsLeft > 0 ? t("resendIn", { seconds: secondsLeft }) : send.isPending ? t("sending") : t("resend")}
            </Button>
            <Button variant="ghost" onClick={check.restart}>
              {t("otherPhone")}
            </Button>
          </div>
        </fieldset>
      </form>
      {validateMessage !== undefined ? (
        <Alert tone="error" title={t("validateFailed")}>
          {validateMessage}
        </Alert>
      ) : null}
      {sendMessage ? (
        <Alert tone="error" title={t("failed")}>
          {sendMessage}
        </Alert>
      ) : null}
    </div>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useSendSmsCode, useValidateSmsCode } from "@/lib/kyc/hooks";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import {
  formatPhone,
  formatPhonePartial,
  parsePhone,
  smsCodeProblem,
  type PhoneProblem,
  type SmsCodeProblem,
} from "@/lib/shared/phone-rules";

import { useCountdown } from "./use-countdown";

type Step = { name: "phone" } | { name: "code"; phone: string; warning?: "unknown_outcome" } | { name: "done"; phone: string };

/**
 * The SMS phone check: send a code, then validate the code the person reads out. Sending again is
 * possible only once the cooldown shown as a countdown has passed (the route enforces it too).
 */
export function SmsCheckPanel({ cooldownSeconds }: { cooldownSeconds: number }) {
  const t = useTranslations("kyc.sms");
  const errorMessage = useApiErrorMessage();
  const send = useSendSmsCode();
  const validate = useValidateSmsCode();
  const [step, setStep] = useState<Step>({ name: "phone" });
  const [phone, setPhone] = useState("+55 ");
  const [phoneError, setPhoneError] = useState<PhoneProblem | "server" | undefined>();
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<SmsCodeProblem | "wrong" | undefined>();
  const [resendAt, setResendAt] = useState<number | null>(null);
  const [sendMessage, setSendMessage] = useState<string | undefined>();
  const secondsLeft = useCountdown(resendAt);

  function sendCode(target: string) {
    setSendMessage(undefined);
    send.mutate(
      { phone: target },
      {
        onSuccess: (result) => {
          setResendAt(Date.now() + result.resendAfterSeconds * 1000);
          setStep({ name: "code", phone: result.phone });
          setCode("");
          setCodeError(undefined);
          validate.reset();
          setTimeout(() => document.getElementById("sms-code")?.focus(), 0);
        },
        onError: (error) => {
          if (!(error instanceof ApiRequestError)) return setSendMessage(errorMessage(error));
          if (error.code === "rate_limited") {
            const wait = error.retryAfterSeconds ?? cooldownSeconds;
            setResendAt(Date.now() + wait * 1000);
            setSendMessage(t("cooldown", { seconds: wait }));
          } else if (error.code === "validation" && error.fields.includes("phone")) {
            setPhoneError("server");
          } else if (error.outcomeUnknown) {
            // The code may have gone out: let the operator type it, and hold a resend for the cooldown.
            setResendAt(Date.now() + cooldownSeconds * 1000);
            setStep({ name: "code", phone: formatPhone(target), warning: "unknown_outcome" });
          } else {
            setSendMessage(errorMessage(error));
          }
        },
      },
    );
  }

  function submitPhone(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    const parsed = parsePhone(phone);
    if ("problem" in parsed) {
      setPhoneError(parsed.problem);
      document.getElementById("sms-phone")?.focus();
      return;
    }
    setPhone(formatPhone(phone));
    sendCode(phone);
  }

  function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (step.name !== "code" || validate.isPending) return;
    const problem = smsCodeProblem(code);
    setCodeError(problem);
    if (problem) {
      document.getElementById("sms-code")?.focus();
      return;
    }
    validate.mutate(
      { phone: step.phone, code },
      {
        onSuccess: (result) => setStep({ name: "done", phone: result.phone }),
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === "validation" && error.fields.includes("code")) {
            setCodeError("wrong");
            document.getElementById("sms-code")?.focus();
          }
        },
      },
    );
  }

  function restart() {
    send.reset();
    validate.reset();
    setStep({ name: "phone" });
    setCode("");
    setCodeError(undefined);
    setSendMessage(undefined);
    setTimeout(() => document.getElementById("sms-phone")?.focus(), 0);
  }

  const canResend = secondsLeft === 0 && !send.isPending;

  return (
    <section aria-labelledby="sms-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="sms-title" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t("description")}</p>

      {step.name === "phone" ? (
        <form noValidate onSubmit={submitPhone} className="mt-4">
          <fieldset disabled={send.isPending} className="space-y-4">
            <legend className="sr-only">{t("title")}</legend>
            <Field
              id="sms-phone"
              name="phone"
              type="tel"
              label={t("phone")}
              hint={t("phoneHint")}
              value={phone}
              required
              autoComplete="off"
              inputMode="tel"
              className="max-w-xs"
              onChange={(event) => {
                setPhone(formatPhonePartial(event.target.value));
                setPhoneError(undefined);
              }}
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
      ) : null}

      {step.name === "code" ? (
        <div className="mt-4 space-y-4">
          {step.warning === "unknown_outcome" ? (
            <Alert tone="warning">{t("unknownOutcome")}</Alert>
          ) : (
            <Alert tone="info">{t("sentTo", { phone: step.phone })}</Alert>
          )}
          <form noValidate onSubmit={submitCode}>
            <fieldset disabled={validate.isPending} className="space-y-4">
              <legend className="sr-only">{t("validate")}</legend>
              <Field
                id="sms-code"
                name="code"
                label={t("code")}
                hint={t("codeHint")}
                value={code}
                required
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={16}
                className="max-w-[12rem]"
                onChange={(event) => {
                  setCode(event.target.value);
                  setCodeError(undefined);
                }}
                error={codeError ? (codeError === "wrong" ? t("wrongCode") : t(`errors.code.${codeError}`)) : undefined}
              />
              <div className="flex flex-wrap gap-3">
                <Button type="submit" pending={validate.isPending}>
                  {validate.isPending ? t("validating") : t("validate")}
                </Button>
                <Button variant="secondary" disabled={!canResend} pending={send.isPending} onClick={() => sendCode(step.phone)}>
                  {secondsLeft > 0 ? t("resendIn", { seconds: secondsLeft }) : send.isPending ? t("sending") : t("resend")}
                </Button>
                <Button variant="ghost" onClick={restart}>
                  {t("otherPhone")}
                </Button>
              </div>
            </fieldset>
          </form>
          {validate.isError && codeError !== "wrong" ? (
            <Alert tone="error" title={t("validateFailed")}>
              {errorMessage(validate.error)}
            </Alert>
          ) : null}
          {sendMessage ? (
            <Alert tone="error" title={t("failed")}>
              {sendMessage}
            </Alert>
          ) : null}
        </div>
      ) : null}

      {step.name === "done" ? (
        <div className="mt-4 space-y-4">
          <Alert tone="success" title={t("validTitle")}>
            {t("validBody", { phone: step.phone })}
          </Alert>
          <Button variant="secondary" onClick={restart}>
            {t("checkAnother")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

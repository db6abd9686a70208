"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { useCountdown } from "@/components/kyc/use-countdown";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useSendSmsCode, useValidateSmsCode } from "@/lib/kyc/hooks";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { formatPhone, parsePhone, smsCodeProblem, type PhoneProblem, type SmsCodeProblem } from "@/lib/shared/phone-rules";

export type SmsStep = { name: "phone" } | { name: "code"; phone: string; warning?: "unknown_outcome" } | { name: "done"; phone: string };

/**
 * The SMS check's steps and fields: the phone, the code sent to it, the countdown before another send, and
 * the failures to show. Focus moves to the field that needs the operator next.
 */
export function useSmsCheck(cooldownSeconds: number) {
  const t = useTranslations("kyc.sms");
  const errorMessage = useApiErrorMessage();
  const send = useSendSmsCode();
  const validate = useValidateSmsCode();
  const [step, setStep] = useState<SmsStep>({ name: "phone" });
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

  return {
    step,
    send,
    validate,
    phone,
    phoneError,
    code,
    codeError,
    sendMessage,
    secondsLeft,
    canResend: secondsLeft === 0 && !send.isPending,
    validateMessage: validate.isError && codeError !== "wrong" ? errorMessage(validate.error) : undefined,
    editPhone: (value: string) => {
      setPhone(value);
      setPhoneError(undefined);
    },
    editCode: (value: string) => {
      setCode(value);
      setCodeError(undefined);
    },
    sendCode,
    submitPhone,
    submitCode,
    restart,
  };
}

export type SmsCheck = ReturnType<typeof useSmsCheck>;

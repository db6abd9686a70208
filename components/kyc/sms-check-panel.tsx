"use client";

import { useTranslations } from "next-intl";

import { SmsCodeStep, SmsPhoneStep } from "@/components/kyc/sms-check-steps";
import { useSmsCheck } from "@/components/kyc/use-sms-check";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TitledSection } from "@/components/ui/titled-section";

/**
 * The SMS phone check: send a code, then validate the code the person reads out. Sending again is
 * possible only once the cooldown shown as a countdown has passed (the route enforces it too).
 */
export function SmsCheckPanel({ cooldownSeconds }: { cooldownSeconds: number }) {
  const t = useTranslations("kyc.sms");
  const check = useSmsCheck(cooldownSeconds);
  const { step } = check;

  return (
    <TitledSection id="sms-title" title={t("title")} lead={t("description")} card>
      {step.name === "phone" ? <SmsPhoneStep check={check} /> : null}

      {step.name === "code" ? <SmsCodeStep check={check} phone={step.phone} warning={step.warning} /> : null}

      {step.name === "done" ? (
        <div className="mt-4 space-y-4">
          <Alert tone="success" title={t("validTitle")}>
            {t("validBody", { phone: step.phone })}
          </Alert>
          <Button variant="secondary" onClick={check.restart}>
            {t("checkAnother")}
          </Button>
        </div>
      ) : null}
    </TitledSection>
  );
}

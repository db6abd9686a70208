"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

// A render failure of the list or detail segment (upstream failures have their own states inside the page).
export default function VerificationsError({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations("verifications.errors");
  return (
    <Alert
      tone="error"
      title={t("generic.title")}
      action={
        <Button variant="secondary" onClick={reset}>
          {t("retry")}
        </Button>
      }
    >
      {t("generic.body")}
    </Alert>
  );
}

"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

// A render failure of the queue (API failures have their own state inside the page).
export default function CasesError({ reset }: { error: Error; reset: () => void }) {
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

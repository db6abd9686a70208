"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** What a segment's error boundary shows when its page fails to render: the generic error and a retry. */
export function SegmentError({ reset }: { reset: () => void }) {
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

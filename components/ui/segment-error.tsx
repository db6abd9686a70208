"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/**
 * What a segment's error boundary shows when its page fails to render: the generic error and a retry, or the
 * segment's own words (`texts`).
 */
export function SegmentError({ reset, texts }: { reset: () => void; texts?: { title: string; body: string; retry: string } }) {
  const t = useTranslations("verifications.errors");
  const { title, body, retry } = texts ?? { title: t("generic.title"), body: t("generic.body"), retry: t("retry") };
  return (
    <Alert
      tone="error"
      title={title}
      action={
        <Button variant="secondary" onClick={reset}>
          {retry}
        </Button>
      }
    >
      {body}
    </Alert>
  );
}

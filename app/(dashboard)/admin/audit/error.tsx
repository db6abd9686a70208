"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

// A render failure of the audit page (request failures have their own state inside the page).
export default function AuditLogError({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations("audit.errors");
  return (
    <Alert
      tone="error"
      title={t("title")}
      action={
        <Button variant="secondary" onClick={reset}>
          {t("retry")}
        </Button>
      }
    >
      {t("generic")}
    </Alert>
  );
}

"use client";

import { useTranslations } from "next-intl";

import { SegmentError } from "@/components/ui/segment-error";

// A render failure of the audit page (request failures have their own state inside the page).
export default function AuditLogError({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations("audit.errors");
  return <SegmentError reset={reset} texts={{ title: t("title"), body: t("generic"), retry: t("retry") }} />;
}

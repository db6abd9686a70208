"use client";

import { useTranslations } from "next-intl";

import { refusalOf } from "@/lib/shared/api-client/api-request";

/** A failed call in the member's words; `conflict` means something different when asking and when deciding. */
export function useErasureErrorText(): (error: unknown, conflict: "requestConflict" | "decisionConflict") => string {
  const t = useTranslations("erasure.errors");
  return (error, conflict) => {
    const code = refusalOf(error)?.code;
    if (!code) return t("unknown");
    if (code === "conflict") return t(conflict);
    return t.has(code) ? t(code) : t("unknown");
  };
}

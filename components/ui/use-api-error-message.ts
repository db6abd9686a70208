"use client";

import { useTranslations } from "next-intl";
import { useCallback } from "react";

import { ApiRequestError } from "@/lib/shared/api-client/api-request";

/**
 * Turns a failed call into a sentence in the dashboard's language: the shared `errors` catalogue first,
 * then the partners-operations extras, then the server's own (English) message as a last resort.
 */
export function useApiErrorMessage(): (error: unknown) => string {
  const t = useTranslations();
  return useCallback(
    (error: unknown) => {
      if (!(error instanceof ApiRequestError)) return t("lookups.apiErrors.unknown");
      if (error.code === "upstream_validation") {
        return t("lookups.apiErrors.upstream_validation", { fields: error.fields.length ? error.fields.join(", ") : "none" });
      }
      if (t.has(`errors.${error.code}`)) return t(`errors.${error.code}`);
      if (t.has(`lookups.apiErrors.${error.code}`)) return t(`lookups.apiErrors.${error.code}`);
      return error.message || t("lookups.apiErrors.unknown");
    },
    [t],
  );
}

"use client";

import { useTranslations } from "next-intl";

import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

/**
 * The message for a refused lookup: the per-user limit says which one and when to come back. A module of its own:
 * the detail's record comparison needs it without the lookup page's record cards.
 */
export function useLookupErrorMessage() {
  const t = useTranslations("lookups.limit");
  const generic = useApiErrorMessage();
  return (error: unknown) => {
    if (error instanceof ApiRequestError && error.code === "rate_limited") {
      const { scope, limit } = error.extra;
      if ((scope === "minute" || scope === "day") && limit) return t(scope, { limit, seconds: error.retryAfterSeconds ?? 60 });
      return t("generic");
    }
    return generic(error);
  };
}

"use client";

import { useTranslations } from "next-intl";

import { ApiRequestError } from "@/lib/shared/api-client/api-request";

/**
 * Why a staff action failed, in the member's language: the shared `errors` catalogue by the answer's code (the
 * server's own message is English), that message only for a code the catalogue does not know.
 */
export function useErrorReason(): (error: Error) => string {
  const t = useTranslations("errors");
  return (error) => (error instanceof ApiRequestError && t.has(error.code) ? t(error.code) : error.message);
}

"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { Button } from "@/components/ui/button";
import type { ApiRequestError } from "@/lib/shared/api-client/api-request";

/*
 * One clear state per failure (DESIGN.md "Errors a user sees"): a refused input names the fields, an IP
 * that is not allowed says what to do, timeouts and 5xx offer a retry. Nothing here shows a stack trace
 * or an upstream body.
 */

const KNOWN = [
  "validation",
  "upstream_validation",
  "upstream_ip_not_allowed",
  "upstream_forbidden",
  "upstream_unauthorized",
  "upstream_unavailable",
  "upstream_rate_limited",
  "network",
  "unauthenticated",
  "forbidden",
  "not_found",
  "conflict",
] as const;

const RETRYABLE = new Set(["upstream_unavailable", "upstream_rate_limited", "network", "internal"]);

export function ApiErrorState({
  error,
  onRetry,
  retrying = false,
}: {
  error: ApiRequestError | Error;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  const t = useTranslations("verifications.errors");
  const code = "code" in error && typeof error.code === "string" ? error.code : "internal";
  const key = (KNOWN as readonly string[]).includes(code) ? code : "generic";
  const fields = "fields" in error && Array.isArray(error.fields) ? error.fields : [];
  const retryable = RETRYABLE.has(code) || ("retryable" in error && error.retryable === true);
  const body =
    key === "validation"
      ? t("validation.body", { fields: fields.join(", ") || "—" })
      : key === "upstream_validation"
        ? error.message
        : t(`${key}.body`);
  return (
    <Alert
      tone={key === "upstream_unavailable" || key === "network" || key === "upstream_rate_limited" ? "warning" : "error"}
      title={t(`${key}.title`)}
      action={
        code === "unauthenticated" ? (
          <Link href="/sign-in" className="font-medium text-brand-800 underline">
            {t("signIn")}
          </Link>
        ) : retryable && onRetry ? (
          <Button variant="secondary" onClick={onRetry} pending={retrying}>
            {t("retry")}
          </Button>
        ) : undefined
      }
    >
      <p>{body}</p>
      {key === "upstream_validation" && fields.length > 0 ? <p className="mt-1 font-mono text-xs">{fields.join(", ")}</p> : null}
      <RequestId error={error} />
    </Alert>
  );
}

/** The service's id of the failed call, when it gave one: support traces the call with it. */
export function RequestId({ error }: { error: ApiRequestError | Error }) {
  const t = useTranslations("verifications.errors");
  const id = "requestId" in error && typeof error.requestId === "string" ? error.requestId : undefined;
  if (!id) return null;
  return (
    <p className="mt-2 text-xs">{t.rich("requestId", { id, code: (chunks) => <code className="font-mono select-all">{chunks}</code> })}</p>
  );
}

"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import type { LookupSource } from "@/lib/lookups/rules";
import type { CpfLookupResponse } from "@/lib/lookups/types";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

import { CpfHistoryCard } from "./cpf-history-card";
import { FederalRevenueCard } from "./federal-revenue-card";
import { useLookupErrorMessage } from "./lookup-error-message";

/** One source's slot in the results: progress, the record card, or what went wrong (with a retry). */
export function LookupResult({
  source,
  status,
  data,
  error,
  onRetry,
}: {
  source: LookupSource;
  status: "idle" | "pending" | "success" | "error";
  data: CpfLookupResponse | undefined;
  error: unknown;
  onRetry: () => void;
}) {
  const t = useTranslations("lookups");
  const message = useLookupErrorMessage();
  const name = t(`form.sources.${source}`);
  if (status === "pending") {
    return (
      <div
        role="status"
        className="flex min-h-40 items-center justify-center gap-2 rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-700"
      >
        <Spinner />
        {t("results.loading", { source: name })}
      </div>
    );
  }
  if (status === "error") {
    const limited = error instanceof ApiRequestError && error.code === "rate_limited";
    const retryable = error instanceof ApiRequestError ? error.retryable && !limited : true;
    return (
      <Alert
        tone={limited ? "warning" : "error"}
        title={t("results.failed", { source: name })}
        action={
          retryable ? (
            <Button variant="secondary" onClick={onRetry}>
              {t("results.retry")}
            </Button>
          ) : undefined
        }
      >
        {message(error)}
      </Alert>
    );
  }
  if (status === "success" && data) {
    const card = data.source === "receita" ? <FederalRevenueCard record={data.record} /> : <CpfHistoryCard record={data.record} />;
    if (!data.maskedBy) return card;
    return (
      <div className="space-y-2">
        <p className="text-sm text-slate-700">{t("results.maskedByRole")}</p>
        {card}
      </div>
    );
  }
  return null;
}

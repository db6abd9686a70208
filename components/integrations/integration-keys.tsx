"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { IntegrationKeysTable } from "@/components/integrations/integration-keys-table";
import { RetireKeyDialog } from "@/components/integrations/retire-key-dialog";
import { RevealableKeys } from "@/components/integrations/revealable-keys";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useIntegrations } from "@/lib/integrations/hooks";
import type { IntegrationKeySummary } from "@/lib/integrations/validation";

/**
 * The integration keys: those whose secret may still be revealed, then the list of every key with its state, each
 * active one retirable (marked here only: the note under the title says the key must be revoked at the provider).
 */
export function IntegrationKeys() {
  const t = useTranslations("integrations");
  const errorMessage = useApiErrorMessage();
  const query = useIntegrations();
  const [retiring, setRetiring] = useState<IntegrationKeySummary | null>(null);
  const [retired, setRetired] = useState<IntegrationKeySummary | null>(null);
  return (
    <>
      {query.data ? <RevealableKeys keys={query.data.revealable} windowSeconds={query.data.revealWindowSeconds} /> : null}
      <section aria-labelledby="keys-title" className="space-y-3">
        <div className="flex items-center gap-3">
          <h2 id="keys-title" className="text-lg font-semibold text-slate-900">
            {t("list.title")}
          </h2>
          {query.isFetching ? (
            <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-600">
              <Spinner />
              {t("list.refreshing")}
            </span>
          ) : null}
        </div>
        <p className="max-w-3xl text-sm text-slate-700">{t("list.statesNote")}</p>
        {retired ? (
          <Alert tone="success" title={t("retire.done", { label: retired.label })}>
            {t("retire.doneBody")}
          </Alert>
        ) : null}
        {query.isError ? (
          <Alert
            tone="error"
            title={t("list.loadFailed")}
            action={
              <Button variant="secondary" onClick={() => void query.refetch()}>
                {t("list.retry")}
              </Button>
            }
          >
            {errorMessage(query.error)}
          </Alert>
        ) : null}
        {query.data ? (
          <IntegrationKeysTable
            keys={query.data.keys}
            onRetire={(key) => {
              setRetired(null);
              setRetiring(key);
            }}
          />
        ) : null}
      </section>
      <RetireKeyDialog
        target={retiring}
        onOpenChange={(open) => (open ? undefined : setRetiring(null))}
        onRetired={(key) => {
          setRetiring(null);
          setRetired(key);
        }}
      />
    </>
  );
}

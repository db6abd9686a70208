"use client";

import { useTranslations } from "next-intl";

import { CreateKeyDialog } from "@/components/integrations/create-key-dialog";
import { IntegrationKeysTable } from "@/components/integrations/integration-keys-table";
import { RevealableKeys } from "@/components/integrations/revealable-keys";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useIntegrations } from "@/lib/integrations/hooks";

export function IntegrationsPageClient() {
  const t = useTranslations("integrations");
  const errorMessage = useApiErrorMessage();
  const query = useIntegrations();
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">{t("title")}</h1>
          <p className="text-sm text-slate-700">{t("intro")}</p>
        </div>
        <CreateKeyDialog />
      </header>
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
        {query.data ? <IntegrationKeysTable keys={query.data.keys} /> : null}
      </section>
    </div>
  );
}

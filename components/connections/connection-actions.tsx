"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { ConnectionFormDialog } from "@/components/connections/connection-form-dialog";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { changeConnection, testConnection } from "@/lib/connections/requests";
import type { ConnectionSummary } from "@/lib/connections/types";

/*
 * A live connection's actions, an island in its server-drawn card: test it (what the test found is drawn again on the
 * card), edit it, retire it after a confirmation. Each request has the page drawn again once it has settled.
 */
export function ConnectionActions({ connection }: { connection: ConnectionSummary }) {
  const t = useTranslations("connections");
  const errorMessage = useApiErrorMessage();
  const test = useRefreshingRequest(testConnection);
  const change = useRefreshingRequest(changeConnection);
  const [retiring, setRetiring] = useState(false);
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" className="px-3 py-1" pending={test.isPending} onClick={() => test.mutate(connection.id)}>
          {t("test")}
          <span className="sr-only"> {connection.name}</span>
        </Button>
        <ConnectionFormDialog editing={connection} />
        <Button variant="ghost" className="px-3 py-1 text-red-800" onClick={() => setRetiring(true)}>
          {t("retire.open")}
          <span className="sr-only"> {connection.name}</span>
        </Button>
      </div>
      {test.error ? <Alert tone="error">{errorMessage(test.error)}</Alert> : null}
      <ConfirmDialog
        open={retiring}
        onOpenChange={setRetiring}
        title={t("retire.title", { name: connection.name })}
        description={t("retire.description")}
        confirmLabel={t("retire.confirm")}
        cancelLabel={t("retire.cancel")}
        pending={change.isPending}
        error={change.error ? errorMessage(change.error) : null}
        onConfirm={() => change.mutate({ id: connection.id, change: { retire: true } }, { onSuccess: () => setRetiring(false) })}
      />
    </>
  );
}

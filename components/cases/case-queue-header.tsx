"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { syncCases } from "@/lib/cases/queue-requests";
import { useRequest } from "@/lib/shared/api-client/use-request";

/**
 * The queue's title and its buttons: `actions` (saving the view), then the sync with the service for `canSync`, after
 * which the queue reads its view again (`onSynced`).
 */
export function CaseQueueHeader({ actions, canSync, onSynced }: { actions?: ReactNode; canSync: boolean; onSynced: () => void }) {
  const t = useTranslations("cases.queue");
  const sync = useRequest(syncCases);
  return (
    <>
      {/* The view's buttons beside the title, not on a line of their own: at 1440×900 that line cost a row of cases. */}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 flex-1 basis-96">
          <h1 className="text-xl font-semibold text-slate-900">{t("title")}</h1>
          <p className="text-sm text-slate-600">
            {t("intro")} {t("keyboardHint")}
          </p>
        </div>
        <div className="flex flex-wrap items-start gap-2">
          {actions}
          {canSync ? (
            <Button variant="secondary" pending={sync.isPending} onClick={() => sync.mutate(undefined, { onSuccess: onSynced })}>
              {sync.isPending ? t("syncing") : t("sync")}
            </Button>
          ) : null}
        </div>
      </div>
      {sync.data ? (
        <p role="status" className="text-sm text-slate-700">
          {sync.data.ran ? t("synced", { seen: sync.data.seen, opened: sync.data.opened, closed: sync.data.closed }) : t("syncSkipped")}
        </p>
      ) : null}
      {sync.error ? <Alert tone="error" title={sync.error.message} /> : null}
    </>
  );
}

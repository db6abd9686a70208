"use client";

import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { ApiErrorState } from "@/components/ui/error-state";
import { hasPermission } from "@/lib/auth/has-permission";
import { useCaseQueue, type QueueParams } from "@/lib/cases/hooks";
import { queueContextQuery } from "@/lib/cases/queue-context";
import { useRouting } from "@/lib/cases/routing-hooks";

import { BulkBar } from "./bulk-bar";
import { CaseQueueFilters } from "./case-queue-filters";
import { CaseQueueHeader } from "./case-queue-header";
import { CaseQueueTable } from "./case-queue-table";
import { CaseQueueTabs } from "./case-queue-tabs";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { useQueueParams } from "./use-queue-params";
import type { Viewer } from "./viewer";

/**
 * The review queue: tabs, filters, the bulk bar for members who work cases, the table with its keys, and the
 * pages. `actions` sit beside the title (the page puts saving the view there).
 */
export function CaseQueue({ initial, viewer, actions }: { initial: QueueParams; viewer: Viewer; actions?: ReactNode }) {
  const t = useTranslations("cases.queue");
  const { params, update, picked, setPicked } = useQueueParams(initial);
  const [helpOpen, setHelpOpen] = useState(false);
  const queue = useCaseQueue(params);
  const canAssign = hasPermission(viewer, "cases.assign");
  const canWork = hasPermission(viewer, "cases.work");
  // Assignees for the bulk bar: the routing's staff, which only cases.assign holders read.
  const routing = useRouting(canAssign);

  const data = queue.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.perPage)) : 1;
  return (
    <div className="space-y-2">
      <CaseQueueHeader actions={actions} canSync={canAssign} />
      <CaseQueueTabs current={params.queue} counts={data?.counts} onChoose={(name) => update({ queue: name })} />
      <CaseQueueFilters params={params} data={data} onUpdate={update} />

      {queue.isError ? (
        <ApiErrorState error={queue.error} onRetry={() => void queue.refetch()} retrying={queue.isFetching} />
      ) : data ? (
        <>
          {/* Kept while the queue empties: a bulk action that took its last cases still shows its results. */}
          {canWork ? (
            <BulkBar
              picked={picked}
              onChange={setPicked}
              queues={data.queues ?? []}
              staff={routing.data?.staff ?? []}
              canAssign={canAssign}
            />
          ) : null}
          <CaseQueueTable
            items={data.items}
            viewerId={viewer.id}
            context={queueContextQuery(params)}
            onHelp={() => setHelpOpen(true)}
            bulk={canWork ? { picked, onChange: setPicked } : undefined}
          />
        </>
      ) : null}

      {data && pages > 1 ? (
        <div className="flex items-center gap-3 text-sm">
          <Button variant="secondary" disabled={params.page <= 1} onClick={() => update({ page: params.page - 1 })}>
            {t("previousPage")}
          </Button>
          <span>{t("page", { page: params.page, pages })}</span>
          <Button variant="secondary" disabled={params.page >= pages} onClick={() => update({ page: params.page + 1 })}>
            {t("nextPage")}
          </Button>
        </div>
      ) : null}
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
    </div>
  );
}

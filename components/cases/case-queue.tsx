"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { useLazyDialog } from "@/components/ui/lazy-dialog";
import { ServerErrorState } from "@/components/ui/server-error-state";
import { ViewNavigationProvider, ViewPending } from "@/components/ui/view-navigation";
import { hasPermission } from "@/lib/auth/has-permission";
import { queueContextQuery } from "@/lib/cases/queue-context";

import { BulkBar } from "./bulk-bar";
import { CaseQueueFilters } from "./case-queue-filters";
import { CaseQueueHeader } from "./case-queue-header";
import { CaseQueueTable } from "./case-queue-table";
import { CaseQueueTabs } from "./case-queue-tabs";
import type { QueueStaff, QueueView } from "./queue-view";
import { useQueueData } from "./use-queue-data";
import { useQueueParams } from "./use-queue-params";
import type { Viewer } from "./viewer";

// The shortcuts' list comes when first asked for (or once the page is idle), not with the first paint.
const loadShortcuts = () => import("./shortcuts-dialog").then((module) => module.ShortcutsDialog);

/**
 * The review queue: tabs, filters, the bulk bar for members who work cases, the table with its keys, and the
 * pages. Drawn from the view the server read (`view`); a tab, filter, sort or page asks the server for the next view
 * (components/ui/view-navigation.tsx), and the queue reads its own view again after an action or a live event
 * (./use-queue-data.ts). `staff`: whom the bulk bar may assign to (cases.assign holders). `actions` sit beside the
 * title (the page puts saving the view there).
 */
export function CaseQueue(props: { view: QueueView; viewer: Viewer; staff: QueueStaff; actions?: ReactNode }) {
  return (
    <ViewNavigationProvider path="/cases">
      <QueueBody {...props} />
    </ViewNavigationProvider>
  );
}

function QueueBody({ view, viewer, staff, actions }: { view: QueueView; viewer: Viewer; staff: QueueStaff; actions?: ReactNode }) {
  const t = useTranslations("cases.queue");
  const { params, update, picked, setPicked } = useQueueParams(view.params);
  const help = useLazyDialog(loadShortcuts);
  const Shortcuts = help.Dialog;
  const { data, refresh } = useQueueData(view);
  const canAssign = hasPermission(viewer, "cases.assign");
  const canWork = hasPermission(viewer, "cases.work");

  const pages = data ? Math.max(1, Math.ceil(data.total / data.perPage)) : 1;
  return (
    <div className="space-y-2">
      <CaseQueueHeader actions={actions} canSync={canAssign} onSynced={refresh} />
      <CaseQueueTabs current={params.queue} counts={data?.counts} onChoose={(name) => update({ queue: name })} />
      <CaseQueueFilters params={params} data={data ?? undefined} onUpdate={update} />

      <ViewPending>
        {"error" in view.answer && !data ? (
          <ServerErrorState error={view.answer.error} />
        ) : data ? (
          <>
            {/* Kept while the queue empties: a bulk action that took its last cases still shows its results. */}
            {canWork ? (
              <BulkBar
                picked={picked}
                onChange={setPicked}
                queues={data.queues ?? []}
                staff={staff}
                canAssign={canAssign}
                onDone={refresh}
              />
            ) : null}
            <CaseQueueTable
              items={data.items}
              viewerId={viewer.id}
              context={queueContextQuery(params)}
              onHelp={help.trigger.onClick}
              onClaimed={refresh}
              bulk={canWork ? { picked, onChange: setPicked } : undefined}
            />
          </>
        ) : null}
      </ViewPending>

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
      {Shortcuts ? <Shortcuts open={help.open} onOpenChange={help.setOpen} /> : null}
    </div>
  );
}

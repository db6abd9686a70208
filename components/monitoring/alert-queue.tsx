"use client";

import { useTranslations } from "next-intl";
import { Fragment, useState } from "react";

import type { Viewer } from "@/components/cases/viewer";
import { Alert } from "@/components/ui/alert";
import { AppLink } from "@/components/ui/app-link";
import { Button } from "@/components/ui/button";
import { withQueryProvider } from "@/components/ui/query-provider";
import { useDateTime } from "@/components/ui/use-formatters";
import { hasPermission } from "@/lib/auth/has-permission";
import { useAlertAction, useMonitoringAlerts } from "@/lib/monitoring/hooks";
import { changeLabel } from "@/lib/monitoring/rules";
import type { MonitoringAlert } from "@/lib/monitoring/types";

import { AlertNotes } from "./alert-notes";

/**
 * The Monitoring queue under the review queue: what the ongoing screening found changed about people the team approved
 * (a new PEP status, a new restrictive list, a death), newest first, each in the team's queue the routing rules sent it
 * to (a selector shows one queue). A member who works cases takes one, then its holder (or whoever runs the queue)
 * writes notes on it and clears it or confirms it was acted on. Its heading is the island's
 * (./alert-queue-island.tsx), which loads this module, with react-query, once the page has loaded.
 */
export function AlertQueue({ viewer }: { viewer: Viewer }) {
  const t = useTranslations("monitoring.queue");
  const [queueId, setQueueId] = useState("");
  const [notesOf, setNotesOf] = useState<string | null>(null);
  const alerts = useMonitoringAlerts("open", queueId);
  const action = useAlertAction();
  const when = useDateTime();
  const mayWork = hasPermission(viewer, "cases.work");
  const runsQueue = hasPermission(viewer, "cases.assign");

  function actions(alert: MonitoringAlert) {
    if (!alert.assignee)
      return mayWork ? (
        <Button
          variant="secondary"
          onClick={() => action.mutate({ id: alert.id, action: "take" })}
          aria-label={t("takeLabel", { id: alert.publicId })}
        >
          {t("take")}
        </Button>
      ) : null;
    if (alert.assignee.id !== viewer.id && !runsQueue) return null;
    return (
      <span className="flex flex-wrap gap-2">
        {(["cleared", "confirmed"] as const).map((outcome) => (
          <Button
            key={outcome}
            variant="secondary"
            onClick={() => action.mutate({ id: alert.id, action: "decide", outcome })}
            aria-label={t(`outcomeLabel.${outcome}`, { id: alert.publicId })}
          >
            {t(`outcome.${outcome}`)}
          </Button>
        ))}
      </span>
    );
  }

  return (
    <div className="space-y-3">
      {alerts.data && alerts.data.queues.length > 1 ? (
        <label className="flex items-center gap-2 text-sm">
          <span className="font-medium text-slate-800">{t("queue")}</span>
          <select
            className="rounded-md border border-slate-300 px-2 py-0.5"
            value={queueId}
            onChange={(event) => setQueueId(event.target.value)}
          >
            <option value="">{t("allQueues")}</option>
            {alerts.data.queues.map((queue) => (
              <option key={queue.id} value={queue.id}>
                {queue.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {alerts.error ? <Alert tone="error" title={alerts.error.message} /> : null}
      {action.error ? <Alert tone="error" title={action.error.message} /> : null}
      {alerts.data && alerts.data.alerts.length === 0 ? <p className="text-sm text-slate-700">{t("empty")}</p> : null}
      {alerts.data && alerts.data.alerts.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-slate-700">
                <th scope="col" className="px-2 py-1 font-medium">
                  {t("columns.change")}
                </th>
                <th scope="col" className="px-2 py-1 font-medium">
                  {t("columns.person")}
                </th>
                <th scope="col" className="px-2 py-1 font-medium">
                  {t("columns.detected")}
                </th>
                <th scope="col" className="px-2 py-1 font-medium">
                  {t("columns.queue")}
                </th>
                <th scope="col" className="px-2 py-1 font-medium">
                  {t("columns.owner")}
                </th>
                <th scope="col" className="px-2 py-1 font-medium">
                  {t("columns.actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {alerts.data.alerts.map((alert) => {
                const change = changeLabel(alert.change);
                const open = notesOf === alert.id;
                const mayWrite = mayWork && (alert.assignee?.id === viewer.id || runsQueue);
                return (
                  <Fragment key={alert.id}>
                    <tr className="border-b border-slate-100">
                      <td className="px-2 py-1">{t(`change.${change.key}`, { list: change.list ?? "" })}</td>
                      <td className="px-2 py-1">
                        <AppLink className="text-brand-800 underline" href={`/verifications/${encodeURIComponent(alert.publicId)}`}>
                          {alert.documentMasked ?? t("unknownDocument")}
                        </AppLink>
                      </td>
                      <td className="px-2 py-1">{when(alert.detectedAt)}</td>
                      <td className="px-2 py-1">{alert.queue.name}</td>
                      <td className="px-2 py-1">{alert.assignee ? alert.assignee.name : t("nobody")}</td>
                      <td className="px-2 py-1">
                        <span className="flex flex-wrap gap-2">
                          {actions(alert)}
                          <Button
                            variant="secondary"
                            aria-expanded={open}
                            aria-controls={`alert-notes-${alert.id}`}
                            aria-label={t("notesLabel", { id: alert.publicId })}
                            onClick={() => setNotesOf(open ? null : alert.id)}
                          >
                            {t("notes")}
                          </Button>
                        </span>
                      </td>
                    </tr>
                    {open ? (
                      <tr id={`alert-notes-${alert.id}`} className="border-b border-slate-100">
                        <td colSpan={6} className="px-2">
                          <AlertNotes alertId={alert.id} mayWrite={mayWrite} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

export default withQueryProvider(AlertQueue);

"use client";

import { useTranslations } from "next-intl";

import type { Viewer } from "@/components/cases/viewer";
import { Alert } from "@/components/ui/alert";
import { AppLink } from "@/components/ui/app-link";
import { Button } from "@/components/ui/button";
import { useDateTime } from "@/components/ui/use-formatters";
import { hasPermission } from "@/lib/auth/permissions";
import { useAlertAction, useMonitoringAlerts } from "@/lib/monitoring/hooks";
import { changeLabel } from "@/lib/monitoring/rules";
import type { MonitoringAlert } from "@/lib/monitoring/types";

/**
 * The Monitoring queue under the review queue: what the ongoing screening found changed about people the team approved
 * (a new PEP status, a new restrictive list, a death), newest first. A member who works cases takes one, then its
 * holder (or whoever runs the queue) clears it or confirms it was acted on.
 */
export function AlertQueue({ viewer }: { viewer: Viewer }) {
  const t = useTranslations("monitoring.queue");
  const alerts = useMonitoringAlerts("open");
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
    <section aria-labelledby="monitoring-queue-title" className="mt-8 space-y-3">
      <h2 id="monitoring-queue-title" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="text-sm text-slate-600">{t("intro")}</p>
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
                return (
                  <tr key={alert.id} className="border-b border-slate-100">
                    <td className="px-2 py-1">{t(`change.${change.key}`, { list: change.list ?? "" })}</td>
                    <td className="px-2 py-1">
                      <AppLink className="text-brand-800 underline" href={`/verifications/${encodeURIComponent(alert.publicId)}`}>
                        {alert.documentMasked ?? t("unknownDocument")}
                      </AppLink>
                    </td>
                    <td className="px-2 py-1">{when(alert.detectedAt)}</td>
                    <td className="px-2 py-1">{alert.assignee ? alert.assignee.name : t("nobody")}</td>
                    <td className="px-2 py-1">{actions(alert)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

import { getLocale, getTranslations } from "next-intl/server";

import { Alert } from "@/components/ui/alert";
import { ColumnHead, FigureCell, FigureTable, FigureTile, ScrollRegion, TextCell } from "@/components/ui/figure-table";
import { numberFormatter } from "@/components/ui/formatters";
import { ReportSection } from "@/components/ui/report-section";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";
import type { DeliveryHealth } from "@/lib/webhooks/types";

const STATES = ["processed", "ignored", "pending", "failed", "unparseable"] as const;

function countOf(health: DeliveryHealth, reason: DeliveryHealth["failing"][number]): number {
  if (reason === "stuck") return health.stuck;
  if (reason === "stopped") return health.unannounced;
  return health.counts[reason];
}

/**
 * How the service's event deliveries fare (lib/webhooks/server/health.ts): a warning when they are failing (given
 * up, unreadable, stuck waiting), the last day's count per state, and the latest deliveries with their state and the
 * connection each was routed to. Drawn on the server, like the calls' section beside it.
 */
export async function DeliveryHealthSection({ health, timeZone }: { health: DeliveryHealth; timeZone: string }) {
  const t = await getTranslations("integrations.deliveries");
  const locale = await getLocale();
  const n = numberFormatter(locale);
  const at = new Intl.DateTimeFormat(locale, { ...DATE_TIME_FORMAT, timeZone });
  const when = (iso: string) => at.format(new Date(iso));
  return (
    <ReportSection id="deliveries" title={t("title")}>
      {health.failing.length > 0 ? (
        <Alert tone="warning">
          <p className="font-medium">{t("failing")}</p>
          <ul className="mt-1 list-disc pl-5">
            {health.failing.map((reason) => (
              <li key={reason}>{t(`reasons.${reason}`, { count: countOf(health, reason) })}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <p className="text-sm text-slate-700">
        {health.lastReceivedAt ? t("last", { at: when(health.lastReceivedAt) }) : t("never")} {t("address")}
      </p>
      <p className="text-xs text-slate-600">{t("countsCaption")}</p>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5">
        {STATES.map((state) => (
          <FigureTile key={state} label={t(`states.${state}`)} data-state={state}>
            <dd className="text-lg font-semibold text-slate-900 tabular-nums">{n(health.counts[state])}</dd>
          </FigureTile>
        ))}
      </dl>
      <ScrollRegion label={t("recentCaption")}>
        <FigureTable
          caption={t("recentCaption")}
          head={
            <>
              <ColumnHead>{t("received")}</ColumnHead>
              <ColumnHead>{t("event")}</ColumnHead>
              <ColumnHead>{t("state")}</ColumnHead>
              <ColumnHead numeric>{t("attempts")}</ColumnHead>
              <ColumnHead>{t("connection")}</ColumnHead>
            </>
          }
        >
          {health.recent.length === 0 ? (
            <tr>
              <TextCell colSpan={5} className="text-slate-600">
                {t("none")}
              </TextCell>
            </tr>
          ) : (
            health.recent.map((delivery, index) => (
              <tr key={`${delivery.receivedAt}-${index}`}>
                <TextCell>{when(delivery.receivedAt)}</TextCell>
                <TextCell className="font-mono text-xs break-all">{delivery.event}</TextCell>
                <TextCell>{t(`states.${delivery.state as (typeof STATES)[number]}`)}</TextCell>
                <FigureCell>{n(delivery.attempts)}</FigureCell>
                <TextCell>{delivery.connectionId ?? t("unrouted")}</TextCell>
              </tr>
            ))
          )}
        </FigureTable>
      </ScrollRegion>
    </ReportSection>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useEffect, useEffectEvent, useRef } from "react";

import { useDateTime, useNumber } from "@/components/ui/use-formatters";
import { useViewNavigation } from "@/components/ui/view-navigation";
import { StatusBadge } from "@/components/verifications/status-badge";
import { useVerificationEvents } from "@/lib/webhooks/hooks";

/*
 * The verification's event history, as the service's webhooks told it, oldest first, with the scores and decision
 * time an event carried (lib/webhooks/server/parse.ts). Polls the
 * dashboard's own store while the page is open (the live stream has it read again at once); when an event newer than
 * the ones already shown arrives, the server draws the page again, so the verification's status and steps change
 * without a reload (what the member typed in the page's forms stays).
 */
export function VerificationEventHistory({ publicId }: { publicId: string }) {
  const t = useTranslations("events.history");
  const formatDateTime = useDateTime();
  const formatNumber = useNumber();
  const navigation = useViewNavigation();
  const drawAgain = useEffectEvent(() => navigation.refresh());
  const history = useVerificationEvents(publicId);
  const events = history.data?.events;
  const newest = events?.reduce((max, event) => Math.max(max, event.id), 0);
  const seen = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (newest === undefined) return;
    if (seen.current !== undefined && newest > seen.current) {
      drawAgain();
    }
    seen.current = newest;
  }, [newest]);

  return (
    <section aria-labelledby="event-history-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="event-history-title" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
      {history.isError ? (
        <p className="mt-3 text-sm text-red-800" role="alert">
          {t("error")}
        </p>
      ) : !events ? (
        <p className="mt-3 text-sm text-slate-600">{t("loading")}</p>
      ) : events.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <ol className="mt-3 space-y-2" aria-live="polite" data-testid="event-history">
          {events.map((event) => (
            <li key={event.id} className="flex flex-wrap items-center gap-3 text-sm">
              <time dateTime={event.occurredAt} className="w-36 text-slate-700">
                {formatDateTime(event.occurredAt)}
              </time>
              <span className="font-medium">{t.has(`event.${event.event}`) ? t(`event.${event.event}`) : event.event}</span>
              {event.status ? <StatusBadge status={event.status} /> : null}
              {/* What the event said besides its status: the documentation's payload carries the scores. */}
              {event.identityScore !== null ? (
                <span className="text-slate-700">{t("identityScore", { score: formatNumber(event.identityScore) })}</span>
              ) : null}
              {event.fraudScore !== null ? (
                <span className="text-slate-700">{t("fraudScore", { score: formatNumber(event.fraudScore) })}</span>
              ) : null}
              {event.decidedAt ? (
                <span className="text-slate-600">{t("decidedAt", { date: formatDateTime(event.decidedAt) ?? "" })}</span>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

"use client";

import { useFormatter, useTranslations } from "next-intl";

import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { AuditEventView } from "@/lib/audit-trail/types";

/*
 * One row per event, readable at a glance: when (display time zone), who, what (in words, with the
 * action's code underneath), on what (masked when personal), why, the result as a worded badge, and from
 * which address. Details, when there are any, open under the row.
 */

const OUTCOME_TONE: Record<AuditEventView["outcome"], BadgeTone> = {
  success: "success",
  failure: "danger",
  denied: "warning",
  intent: "info",
};

const headerClass = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-700";
const cellClass = "px-3 py-2 align-top text-sm text-slate-800";

function Headers() {
  const t = useTranslations("audit.table");
  return (
    <thead className="bg-slate-50">
      <tr>
        {(["when", "who", "what", "target", "why", "result", "from"] as const).map((key) => (
          <th key={key} scope="col" className={headerClass}>
            {t(key)}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function detailValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

export function AuditEventRow({ event }: { event: AuditEventView }) {
  const t = useTranslations("audit");
  const format = useFormatter();
  const at = new Date(event.at);
  const actionKey = `actions.${event.action}`;
  const typeKey = event.targetType ? `targetTypes.${event.targetType}` : null;
  const details = Object.entries(event.details);
  return (
    <tr className="border-t border-slate-100">
      <td className={`${cellClass} whitespace-nowrap`}>
        <time dateTime={event.at}>{format.dateTime(at, { dateStyle: "short", timeStyle: "medium" })}</time>
        <span className="block text-xs text-slate-500">{t("table.eventId", { id: event.id })}</span>
      </td>
      <td className={cellClass}>
        {event.actorEmail ? (
          <>
            <span className="break-words">{event.actorEmail}</span>
            {event.actorId ? null : <span className="block text-xs text-slate-600">{t("table.notSignedIn")}</span>}
          </>
        ) : (
          <span className="text-slate-700 italic">{t("table.system")}</span>
        )}
      </td>
      <td className={cellClass}>
        <span className="font-medium">{t.has(actionKey) ? t(actionKey) : event.action}</span>
        <code className="block text-xs text-slate-600">{event.action}</code>
        {details.length ? (
          <details className="mt-1 text-xs">
            <summary className="cursor-pointer text-brand-800 underline">{t("table.details")}</summary>
            <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
              {details.map(([key, value]) => (
                <div key={key} className="contents">
                  <dt className="font-mono text-slate-600">{key}</dt>
                  <dd className="font-mono break-all text-slate-800">{detailValue(value)}</dd>
                </div>
              ))}
            </dl>
          </details>
        ) : null}
      </td>
      <td className={cellClass}>
        {event.target || event.targetType ? (
          <>
            {typeKey ? <span className="block text-xs text-slate-600">{t.has(typeKey) ? t(typeKey) : event.targetType}</span> : null}
            {event.target ? <span className="font-mono break-all">{event.target}</span> : null}
          </>
        ) : (
          t("table.none")
        )}
      </td>
      <td className={`${cellClass} max-w-56 break-words`}>{event.purpose || t("table.none")}</td>
      <td className={cellClass}>
        <Badge tone={OUTCOME_TONE[event.outcome]}>{t(`outcome.${event.outcome}`)}</Badge>
      </td>
      <td className={`${cellClass} font-mono text-xs whitespace-nowrap`}>{event.ip ?? t("table.none")}</td>
    </tr>
  );
}

export function AuditEventTable({ events, caption, busy = false }: { events: AuditEventView[]; caption: string; busy?: boolean }) {
  return (
    <table className="min-w-full" aria-busy={busy || undefined}>
      <caption className="sr-only">{caption}</caption>
      <Headers />
      <tbody>
        {events.map((event) => (
          <AuditEventRow key={event.id} event={event} />
        ))}
      </tbody>
    </table>
  );
}

/** Same table shape while the first page loads. */
export function AuditEventTableSkeleton({ rows = 10, caption }: { rows?: number; caption: string }) {
  return (
    <table className="min-w-full" aria-busy="true">
      <caption className="sr-only">{caption}</caption>
      <Headers />
      <tbody>
        {Array.from({ length: rows }, (_, index) => (
          <tr key={index} className="border-t border-slate-100">
            {Array.from({ length: 7 }, (_, cell) => (
              <td key={cell} className={cellClass}>
                <span className="block h-4 w-full max-w-32 animate-pulse rounded bg-slate-200" />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import { useFormatter, useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { AuditGroupRows } from "@/components/audit-trail/audit-event-group";
import { AUDIT_CELL_CLASS, OUTCOME_TONE } from "@/components/audit-trail/outcome-tone";
import { Badge } from "@/components/ui/badge";
import { DataBody, DataCell, DataHead, DataHeader, DataRow, DataTable } from "@/components/ui/data-table";
import { groupAuditEvents, type AuditEventGroup } from "@/lib/audit-trail/groups";
import type { AuditEventView, AuditStaff } from "@/lib/audit-trail/types";
import { DATE_TIME_SECONDS_FORMAT } from "@/lib/shared/date-format";

/*
 * One row per event, readable at a glance: when (display time zone), who (name and email, as the staff table
 * has them now, else the email recorded), what (in words, with the action's code underneath), on what (masked
 * when personal; a staff account by name), why, the result as a worded badge, and from which address. Details,
 * when there are any, open under the row. The events of one page view (opening a case writes several) are one
 * row that opens onto them (lib/audit-trail/groups.ts). Below md each row is a card (components/ui/data-table.tsx),
 * so a phone never scrolls the log sideways.
 *
 * Drawn by the server for the log's first page and in the browser for older pages and a search by CPF: no
 * browser-only code here but the group's open and closed (./audit-event-group.tsx), which is handed its rows'
 * cells already drawn.
 */

export type StaffDirectory = Record<string, AuditStaff>;

const COLUMNS = ["when", "who", "what", "target", "why", "result", "from"] as const;
const cellClass = AUDIT_CELL_CLASS;

function Headers() {
  const t = useTranslations("audit.table");
  return (
    <DataHead>
      {COLUMNS.map((key) => (
        <DataHeader key={key}>{t(key)}</DataHeader>
      ))}
    </DataHead>
  );
}

function detailValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** A staff member by name and email; the recorded email (or the id) when the account is gone. */
function StaffLabel({ id, email, staff }: { id: string | null; email: string | null; staff: StaffDirectory }) {
  const known = id ? staff[id.toLowerCase()] : undefined;
  if (known?.name) {
    return (
      <>
        <span className="block font-medium break-words">{known.name}</span>
        <span className="block text-xs break-words text-slate-600">{known.email}</span>
      </>
    );
  }
  return <span className="break-words">{known?.email ?? email ?? id}</span>;
}

function Who({ event, staff }: { event: AuditEventView; staff: StaffDirectory }) {
  const t = useTranslations("audit");
  if (!event.actorEmail && !event.actorId) return <span className="text-slate-700 italic">{t("table.system")}</span>;
  return (
    <>
      <StaffLabel id={event.actorId} email={event.actorEmail} staff={staff} />
      {event.actorId ? null : <span className="block text-xs text-slate-600">{t("table.notSignedIn")}</span>}
    </>
  );
}

export function AuditEventRow({ event, staff = {} }: { event: AuditEventView; staff?: StaffDirectory }) {
  return (
    <DataRow data-event-id={event.id}>
      <AuditEventCells event={event} staff={staff} />
    </DataRow>
  );
}

/** An event's cells: its own row's, or one of a page view's rows under the summary (`nested`). */
function AuditEventCells({ event, staff, nested = false }: { event: AuditEventView; staff: StaffDirectory; nested?: boolean }) {
  const t = useTranslations("audit");
  const format = useFormatter();
  const at = new Date(event.at);
  const actionKey = `actions.${event.action}`;
  const typeKey = event.targetType ? `targetTypes.${event.targetType}` : null;
  const details = Object.entries(event.details);
  return (
    <>
      <DataCell
        label={t("table.when")}
        className={`${cellClass} md:whitespace-nowrap ${nested ? "md:border-brand-200 md:border-l-4" : ""}`}
      >
        <time dateTime={event.at}>{format.dateTime(at, DATE_TIME_SECONDS_FORMAT)}</time>
        <span className="block text-xs text-slate-600">{t("table.eventId", { id: event.id })}</span>
      </DataCell>
      <DataCell label={t("table.who")} className={cellClass}>
        <Who event={event} staff={staff} />
      </DataCell>
      <DataCell label={t("table.what")} className={cellClass}>
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
      </DataCell>
      <DataCell label={t("table.target")} className={cellClass}>
        {event.target || event.targetType ? (
          <>
            {typeKey ? <span className="block text-xs text-slate-600">{t.has(typeKey) ? t(typeKey) : event.targetType}</span> : null}
            {event.target && event.targetType === "staff" ? (
              <>
                <StaffLabel id={event.target} email={null} staff={staff} />
                {staff[event.target.toLowerCase()] ? (
                  <span className="block font-mono text-xs break-all text-slate-500">{event.target}</span>
                ) : null}
              </>
            ) : event.target ? (
              <span className="font-mono break-all">{event.target}</span>
            ) : null}
          </>
        ) : (
          t("table.none")
        )}
        {event.connectionId ? (
          <span className="block text-xs text-slate-600">{t("table.connection", { id: event.connectionId })}</span>
        ) : null}
      </DataCell>
      <DataCell label={t("table.why")} className={`${cellClass} break-words md:max-w-56`}>
        {event.purpose || t("table.none")}
      </DataCell>
      <DataCell label={t("table.result")} className={cellClass}>
        <Badge tone={OUTCOME_TONE[event.outcome]}>{t(`outcome.${event.outcome}`)}</Badge>
      </DataCell>
      <DataCell label={t("table.from")} className={`${cellClass} font-mono text-xs md:whitespace-nowrap`}>
        {event.ip ?? t("table.none")}
      </DataCell>
    </>
  );
}

const OUTCOME_ORDER: Array<AuditEventView["outcome"]> = ["denied", "failure", "intent", "success"];

/**
 * One page view's events: a summary row (oldest time, who, what was opened, how many events) that opens onto them.
 * The browser's part (./audit-event-group.tsx) is the button and the rows' hiding; every cell is drawn here.
 */
function AuditEventGroup({ group, staff }: { group: AuditEventGroup; staff: StaffDirectory }) {
  const t = useTranslations("audit");
  const format = useFormatter();
  const newest = group.events[0]!;
  const oldest = group.events[group.events.length - 1]!;
  const count = group.events.length;
  const firstKey = `actions.${oldest.action}`;
  const summary = group.opened
    ? t("group.openedCase", { target: group.opened, count })
    : t("group.pageView", { action: t.has(firstKey) ? t(firstKey) : oldest.action, count });
  const outcomes = OUTCOME_ORDER.filter((outcome) => group.events.some((event) => event.outcome === outcome));
  return (
    <AuditGroupRows
      summary={summary}
      label={t("table.what")}
      show={t("group.show")}
      hide={t("group.hide")}
      rows={group.events.map((event) => ({
        id: event.id,
        cells: <AuditEventCells key={event.id} event={event} staff={staff} nested />,
      }))}
      before={
        <>
          <DataCell label={t("table.when")} className={`${cellClass} md:whitespace-nowrap`}>
            <time dateTime={oldest.at}>{format.dateTime(new Date(oldest.at), DATE_TIME_SECONDS_FORMAT)}</time>
            <span className="block text-xs text-slate-600">{t("group.span", { from: oldest.id, to: newest.id })}</span>
          </DataCell>
          <DataCell label={t("table.who")} className={cellClass}>
            <Who event={newest} staff={staff} />
          </DataCell>
        </>
      }
      after={
        <>
          <DataCell label={t("table.why")} className={cellClass}>
            {t("table.none")}
          </DataCell>
          <DataCell label={t("table.result")} className={cellClass}>
            <span className="flex flex-wrap gap-1">
              {outcomes.map((outcome) => (
                <Badge key={outcome} tone={OUTCOME_TONE[outcome]}>
                  {t(`outcome.${outcome}`)}
                </Badge>
              ))}
            </span>
          </DataCell>
          <DataCell label={t("table.from")} className={`${cellClass} font-mono text-xs md:whitespace-nowrap`}>
            {newest.ip ?? t("table.none")}
          </DataCell>
        </>
      }
    />
  );
}

/** The events' rows, grouped by page view: the body of the log's table, or a further body of its older pages. */
export function AuditEventRows({
  events,
  staff = {},
  className,
}: {
  events: AuditEventView[];
  staff?: StaffDirectory;
  className?: string;
}) {
  return (
    <DataBody className={className}>
      {groupAuditEvents(events).map((group) =>
        group.events.length === 1 ? (
          <AuditEventRow key={group.key} event={group.events[0]!} staff={staff} />
        ) : (
          <AuditEventGroup key={group.key} group={group} staff={staff} />
        ),
      )}
    </DataBody>
  );
}

export function AuditEventTable({
  events,
  staff = {},
  caption,
  busy = false,
  older,
}: {
  events: AuditEventView[];
  staff?: StaffDirectory;
  caption: string;
  busy?: boolean;
  /** Older pages loaded in the browser, as further bodies of the same table. */
  older?: ReactNode;
}) {
  return (
    // A named, focusable region from md up, where the log may scroll sideways on a narrow desktop.
    <DataTable caption={caption} label={caption} busy={busy}>
      <Headers />
      <AuditEventRows events={events} staff={staff} />
      {older}
    </DataTable>
  );
}

/** Same table shape while the first page loads. */
export function AuditEventTableSkeleton({ rows = 10, caption }: { rows?: number; caption: string }) {
  return (
    <DataTable caption={caption} busy>
      <Headers />
      <DataBody>
        {Array.from({ length: rows }, (_, index) => (
          <DataRow key={index}>
            {COLUMNS.map((key) => (
              <DataCell key={key} kind="title" className={cellClass}>
                <span className="block h-4 w-full max-w-32 animate-pulse rounded bg-slate-200" />
              </DataCell>
            ))}
          </DataRow>
        ))}
      </DataBody>
    </DataTable>
  );
}

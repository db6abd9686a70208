import type { AuditEventView } from "./types";

/*
 * The audit page's rows: consecutive events of the same actor written in the same page view (the detail
 * `pageView`, lib/shared/page-view.ts) are one group, so opening a case (its render, then the case, media and
 * events the page reads) reads as one line, "Opened case … — 6 events", that opens onto the events themselves.
 * Events without a page view (written before it existed, or by the system) stay rows of their own. Only
 * neighbours in the order shown are grouped: nothing is reordered, and a group never hides an event between
 * two of its own.
 */

export interface AuditEventGroup {
  /** Stable key: the newest event's id. */
  key: number;
  /** Newest first, as the page lists them. */
  events: AuditEventView[];
  /** The verification the view opened (a `verification.view` or `case.view` among its events), if any. */
  opened: string | null;
}

const OPENING_ACTIONS = new Set(["verification.view", "case.view"]);

function pageViewOf(event: AuditEventView): string | null {
  const value = event.details.pageView;
  return typeof value === "string" && value ? value : null;
}

function sameView(a: AuditEventView, b: AuditEventView): boolean {
  const view = pageViewOf(a);
  return view !== null && view === pageViewOf(b) && a.actorId === b.actorId && a.actorEmail === b.actorEmail;
}

function openedBy(events: AuditEventView[]): string | null {
  // The earliest opening read (the list is newest first).
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index]!;
    if (OPENING_ACTIONS.has(event.action) && event.targetType === "verification" && event.target) return event.target;
  }
  return null;
}

export function groupAuditEvents(events: AuditEventView[]): AuditEventGroup[] {
  const groups: AuditEventGroup[] = [];
  let current: AuditEventView[] = [];
  const close = () => {
    if (current.length) groups.push({ key: current[0]!.id, events: current, opened: current.length > 1 ? openedBy(current) : null });
    current = [];
  };
  for (const event of events) {
    if (current.length && !sameView(current[current.length - 1]!, event)) close();
    current.push(event);
  }
  close();
  return groups;
}

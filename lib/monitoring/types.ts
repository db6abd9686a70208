/* Shapes of the monitoring API's answers. Shared: no server imports. */

/** The screening's daily budget of upstream calls and today's spending. */
export interface ScreeningBudget {
  dailyBudget: number;
  spentToday: number;
  left: number;
}

/** What one screening run did (POST /api/monitoring/run). */
export interface ScreeningRunResult {
  ran: boolean;
  screened: number;
  failed: number;
  alertsOpened: number;
  calls: number;
  budget: number;
  budgetLeft: number;
}

export type AlertOutcome = "cleared" | "confirmed";

/** A monitoring alert as the queue shows it (GET /api/monitoring/alerts). */
export interface MonitoringAlert {
  id: string;
  publicId: string;
  documentMasked: string | null;
  /** `pep`, `deceased` or `list:<name>`. */
  change: string;
  detectedAt: string;
  status: "open" | "closed";
  /** The team's queue the routing rules sent it to (a retired queue's open alerts: the default queue). */
  queue: { id: string; name: string };
  assignee: { id: string; name: string } | null;
  outcome: AlertOutcome | null;
  outcomeAt: string | null;
}

/** A note on a monitoring alert (GET /api/monitoring/alerts/{id}/notes), oldest first. */
export interface AlertNote {
  id: number;
  at: string;
  author: { id: string; name: string } | null;
  /** The words, plain (always rendered as text); null when erased or unreadable. */
  text: string | null;
  /** Stored but cannot be opened (its key gone from the ring, or altered). */
  unreadable: boolean;
  /** Erased at the titular's request. */
  redacted: boolean;
}

/** GET /api/monitoring/alerts: the alerts, and the team's live queues (the queue selector). */
export interface MonitoringAlertList {
  alerts: MonitoringAlert[];
  queues: Array<{ id: string; name: string }>;
}

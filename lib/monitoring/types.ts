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
  assignee: { id: string; name: string } | null;
  outcome: AlertOutcome | null;
  outcomeAt: string | null;
}

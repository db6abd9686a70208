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

/* Shapes of the monitoring API's answers. Shared: no server imports. */

/** The screening's daily budget of upstream calls and today's spending. */
export interface ScreeningBudget {
  dailyBudget: number;
  spentToday: number;
  left: number;
}

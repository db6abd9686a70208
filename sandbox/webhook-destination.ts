/*
 * The webhook destination's state. Source: Legitimuz-Tech/legitimuz-core-documentation api/webhooks.mdx (afcc2cb): a
 * destination is active or paused, and the operator switches between the two; the third state, failing, is the
 * system's verdict on the deliveries (there to notice a broken endpoint), never set by hand. The page gives no rule
 * for that verdict: here, FAILING_AFTER failed attempts in a row, and the next 2xx makes it active again (sandbox
 * assumption). A pause wins over the verdict: a paused destination reads `paused` whatever its last attempts did.
 */

export type DestinationState = "active" | "paused" | "failing";

/** Failed attempts in a row (no 2xx in between) that make the destination `failing` (sandbox assumption). */
export const FAILING_AFTER = 3;

export class DestinationHealth {
  private paused = false;
  private failedInARow = 0;

  state(): DestinationState {
    if (this.paused) return "paused";
    return this.failedInARow >= FAILING_AFTER ? "failing" : "active";
  }

  isPaused(): boolean {
    return this.paused;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  /** One attempt's outcome: a 2xx ends a run of failures, anything else extends it. */
  record(delivered: boolean): void {
    this.failedInARow = delivered ? 0 : this.failedInARow + 1;
  }

  /** Another URL is another endpoint: the failures of the previous one are not held against it. */
  forgetFailures(): void {
    this.failedInARow = 0;
  }
}

import type { ApiRequestError } from "./api-request";

/*
 * The step-up registry: how a call refused with `step_up_required` (./api-request.ts) reaches the dialog that asks
 * for the second factor (components/auth/step-up-provider.tsx), without the API client knowing React. The dialog's
 * provider registers one handler; the client asks it and, once the member has verified a factor, sends the refused
 * request again (once). Several calls refused at the same moment share one question: the first asks, the others wait
 * for its outcome.
 *
 * A module of its own, so the shell's provider registers at start without loading the API client: a page whose own
 * code sends no request (the overview, the administration's index) loads the client only when something asks.
 */

/** What the dialog ended with: verified, or given up (with the message to show, in the member's language). */
export type StepUpOutcome = { verified: true } | { verified: false; message?: string };

export type StepUpHandler = (refusal: ApiRequestError) => Promise<StepUpOutcome>;

let stepUpHandler: StepUpHandler | null = null;
let stepUpInFlight: Promise<StepUpOutcome> | null = null;

/** Registers the step-up handler (the mounted dialog); returns the function that removes it again. */
export function setStepUpHandler(next: StepUpHandler | null): () => void {
  stepUpHandler = next;
  return () => {
    if (stepUpHandler === next) stepUpHandler = null;
  };
}

/**
 * Asks the registered handler for a step-up. Without one (no dialog mounted: a sign-in page, a test) the
 * answer is "not verified", and the caller keeps the original refusal.
 */
export function requestStepUp(refusal: ApiRequestError): Promise<StepUpOutcome> {
  if (!stepUpHandler) return Promise.resolve({ verified: false });
  if (stepUpInFlight) return stepUpInFlight;
  const asked = stepUpHandler(refusal).catch((): StepUpOutcome => ({ verified: false }));
  stepUpInFlight = asked;
  void asked.finally(() => {
    if (stepUpInFlight === asked) stepUpInFlight = null;
  });
  return asked;
}

import type { ApiRequestError } from "./api-request";

/*
 * The step-up registry: how a call refused with 401 `step_up_required` reaches the dialog that asks for the
 * second factor (components/auth/step-up-dialog.tsx), without this layer knowing React. The dialog's provider registers one
 * handler; apiRequest asks it and, once the member has verified a factor, sends the refused request again
 * (once). Several calls refused at the same moment share one dialog: the first opens it, the others wait for
 * its outcome.
 */

/** What the dialog ended with: verified, or given up (with the message to show, in the member's language). */
export type StepUpOutcome = { verified: true } | { verified: false; message?: string };

export type StepUpHandler = (refusal: ApiRequestError) => Promise<StepUpOutcome>;

let handler: StepUpHandler | null = null;
let inFlight: Promise<StepUpOutcome> | null = null;

/** Registers the handler (the mounted dialog); returns the function that removes it again. */
export function setStepUpHandler(next: StepUpHandler | null): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = null;
  };
}

/**
 * Asks the registered handler for a step-up. Without one (no dialog mounted: a sign-in page, a test) the
 * answer is "not verified", and the caller keeps the original refusal.
 */
export function requestStepUp(refusal: ApiRequestError): Promise<StepUpOutcome> {
  if (!handler) return Promise.resolve({ verified: false });
  if (inFlight) return inFlight;
  const asked = handler(refusal).catch((): StepUpOutcome => ({ verified: false }));
  inFlight = asked;
  void asked.finally(() => {
    if (inFlight === asked) inFlight = null;
  });
  return asked;
}

// Shared (browser): what went wrong in a WebAuthn ceremony, in the few cases a person can act on.

export type PasskeyProblem = "cancelled" | "unsupported" | "alreadyRegistered" | "failed";

/**
 * The browser refuses a ceremony the person closed or let time out with a `NotAllowedError` (passed through
 * by @simplewebauthn/browser), and says nothing more on purpose; `ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED`
 * means this authenticator already holds one of the member's passkeys.
 */
export function passkeyProblemOf(error: unknown): PasskeyProblem {
  const name = error instanceof Error ? error.name : "";
  const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : "";
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || name === "InvalidStateError") return "alreadyRegistered";
  if (name === "NotAllowedError" || name === "AbortError" || code === "ERROR_CEREMONY_ABORTED") return "cancelled";
  if (name === "NotSupportedError") return "unsupported";
  return "failed";
}

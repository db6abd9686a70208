/*
 * The dashboard's errors, apart from HTTP: a feature throws an AppError (or a subclass naming the case, e.g.
 * CaseTakenError) with a code saying what went wrong; the one error mapper (lib/api/errors.ts) decides the
 * HTTP status of each code, in one table. Browser-safe: no server import.
 */

export const ERROR_CODES = [
  "bad_request",
  "validation",
  "unauthenticated",
  "step_up_required",
  "forbidden",
  "permission_not_held",
  "own_access",
  "cross_origin",
  "not_found",
  "method_not_allowed",
  "conflict",
  "last_holder",
  "confirmer_not_independent",
  "media_token_expired",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "server_busy",
  "internal",
  "upstream_validation",
  "upstream_unauthorized",
  "upstream_ip_not_allowed",
  "upstream_forbidden",
  "upstream_rate_limited",
  "upstream_rejected",
  "upstream_unavailable",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  bad_request: "The request is not valid.",
  validation: "Some fields are not valid.",
  unauthenticated: "Sign in to continue.",
  step_up_required: "Confirm it is you with your second factor to do this.",
  forbidden: "You do not have permission to do this.",
  permission_not_held: "You can grant only permissions you hold yourself, and change only accounts whose permissions you all hold.",
  own_access: "Nobody changes their own role, their own account's access or the role they hold: ask another member.",
  cross_origin: "This request did not come from the dashboard's own pages, so it was refused.",
  not_found: "Not found.",
  method_not_allowed: "Method not allowed.",
  conflict: "This conflicts with the current state. Reload and try again.",
  last_holder: "This would leave no active member able to manage staff or roles.",
  confirmer_not_independent:
    "Your account was created, re-enabled or given its role by the requester after the request, or too shortly before it: another member must confirm.",
  media_token_expired: "This image link has expired. Load the images again.",
  payload_too_large: "The request is too large.",
  unsupported_media_type: "Send the body as JSON (Content-Type: application/json).",
  rate_limited: "Too many requests. Wait a moment and try again.",
  server_busy: "The server is receiving too much data at once. Try again in a moment.",
  internal: "Something went wrong on our side. Try again; if it persists, contact an administrator.",
  upstream_validation: "The verification service rejected the request.",
  upstream_unauthorized:
    "The verification service refused this server's credentials, even after signing in again. Ask an administrator to check the partners account configuration.",
  upstream_ip_not_allowed:
    "This server's IP address is not on the verification service's allow-list. Ask the service's support to allow it.",
  upstream_forbidden:
    "The verification service refused this operation: this server's key or domain lacks the permission for it. Ask an administrator.",
  upstream_rate_limited: "The verification service is limiting requests. Wait a moment and try again.",
  upstream_rejected: "The verification service refused the request. Ask an administrator if it persists.",
  upstream_unavailable: "The verification service is unavailable. Try again.",
};

/** An error thrown on purpose; its code decides the answer (lib/api/errors.ts maps it to a status). */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: string[] | undefined;
  readonly retryable: boolean | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** Extra answer headers (a rate limit's scope and limit). */
  readonly headers: Record<string, string> | undefined;
  /** The service's request id, when an upstream call failed: support can trace the call with it. */
  readonly requestId: string | undefined;

  constructor(
    code: ErrorCode,
    message: string = DEFAULT_MESSAGES[code],
    options: {
      fields?: string[];
      retryable?: boolean;
      retryAfterSeconds?: number;
      headers?: Record<string, string>;
      requestId?: string;
    } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fields = options.fields?.length ? options.fields : undefined;
    this.retryable = options.retryable;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.headers = options.headers;
    this.requestId = options.requestId;
  }
}

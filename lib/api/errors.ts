import "server-only";

import { NextResponse } from "next/server";
import { z } from "zod";

import { log } from "@/lib/log";
import type { ServerError } from "@/lib/shared/api-client/server-error";
import { AppError, DEFAULT_MESSAGES, type ErrorCode } from "@/lib/shared/errors";
import { UpstreamError, UpstreamForbiddenError, UpstreamRateLimitedError } from "@/lib/upstream/errors";

/*
 * The one error mapper of the dashboard's HTTP API. Route handlers throw (AppError, ZodError,
 * UpstreamError, anything) and end with `catch (error) { return toErrorResponse(error); }`.
 *
 * The body is always `{ error: { code, message, fields?, retryable? } }`. `code` is machine-readable so
 * the UI can translate it; `message` is English text an analyst can act on. No stack trace, upstream body,
 * URL or credential ever goes out; unexpected errors are logged (redacted) and answered with a generic 500.
 */

/** The HTTP status of each error code: the one place a code becomes a status. */
const STATUS = {
  bad_request: 400,
  validation: 400,
  unauthenticated: 401,
  step_up_required: 401,
  forbidden: 403,
  permission_not_held: 403,
  own_access: 403,
  cross_origin: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  last_holder: 409,
  confirmer_not_independent: 409,
  media_token_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  // Too many large request bodies being read at once (lib/api/body.ts): the request may be sent again.
  server_busy: 503,
  internal: 500,
  // Upstream failures. A refused credential, IP or permission is this server's configuration problem,
  // not the analyst's: 502. An unreachable or broken service: 503, retryable.
  upstream_validation: 400,
  upstream_unauthorized: 502,
  upstream_ip_not_allowed: 502,
  upstream_forbidden: 502,
  upstream_rate_limited: 429,
  upstream_rejected: 502,
  upstream_unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

export interface ApiErrorBody {
  /** `requestId`: the verification service's id of the failed call, for support (upstream failures only). */
  error: { code: ErrorCode; message: string; fields?: string[]; retryable?: boolean; requestId?: string };
}

/** The HTTP status an AppError is answered with. */
export function httpStatusOf(error: AppError): number {
  return STATUS[error.code];
}

/** The field paths of a ZodError, e.g. `document.number`, in order, without repeats. */
export function zodFieldPaths(error: z.ZodError): string[] {
  return [...new Set(error.issues.map((issue) => issue.path.map(String).join(".") || "(input)"))];
}

/** Maps an upstream failure to what the analyst sees (DESIGN.md "Errors a user sees"). */
export function fromUpstreamError(error: UpstreamError): AppError {
  const mapped = mapUpstreamError(error);
  if (!error.requestId) return mapped;
  return new AppError(mapped.code, mapped.message, {
    fields: mapped.fields,
    retryable: mapped.retryable,
    retryAfterSeconds: mapped.retryAfterSeconds,
    requestId: error.requestId,
  });
}

function mapUpstreamError(error: UpstreamError): AppError {
  switch (error.kind) {
    case "validation": {
      // What was rejected: the fields the upstream named, else its own (redacted, digit-masked) message.
      const what = error.fields?.length
        ? `it rejected ${error.fields.join(", ")}`
        : error.upstreamMessage
          ? `it said: ${error.upstreamMessage}`
          : undefined;
      const message = what ? `The verification service rejected the request: ${what}.` : DEFAULT_MESSAGES.upstream_validation;
      return new AppError("upstream_validation", message, { fields: error.fields });
    }
    case "unauthorized":
      return new AppError("upstream_unauthorized");
    case "forbidden":
      return error instanceof UpstreamForbiddenError && error.reason === "ip_not_allowed"
        ? new AppError("upstream_ip_not_allowed")
        : new AppError("upstream_forbidden");
    case "not_found":
      // Never more: the upstream answers 404 for another integration's or environment's record too.
      return new AppError("not_found", "Not found.");
    case "rate_limited":
      return new AppError("upstream_rate_limited", undefined, {
        retryable: true,
        retryAfterSeconds: error instanceof UpstreamRateLimitedError ? error.retryAfterSeconds : undefined,
      });
    case "rejected":
      return new AppError("upstream_rejected");
    case "timeout":
    case "unavailable":
    case "malformed":
      return new AppError("upstream_unavailable", undefined, { retryable: true });
  }
}

/** Anything thrown, as the AppError it is answered with (unexpected errors logged, redacted, as `internal`). */
function toApiError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof z.ZodError) {
    const fields = zodFieldPaths(error);
    const details = error.issues.map((issue) => `${issue.path.map(String).join(".") || "input"}: ${issue.message}`);
    return new AppError("validation", `Invalid input: ${details.join("; ")}.`, { fields });
  }
  // Already logged by the base client (method, route, status, duration).
  if (error instanceof UpstreamError) return fromUpstreamError(error);
  log.error("unhandled_error", { error });
  return new AppError("internal");
}

/**
 * What a server page hands its client component when its first fetch failed: the same code, message and
 * retry hint the route handler would have answered, as a plain value (lib/shared/api-client/server-error.ts).
 */
export function serverErrorOf(error: unknown): ServerError {
  const apiError = toApiError(error);
  const serverError: ServerError = {
    status: httpStatusOf(apiError),
    code: apiError.code,
    message: apiError.message,
    retryable: apiError.retryable ?? httpStatusOf(apiError) >= 500,
  };
  if (apiError.requestId) serverError.requestId = apiError.requestId;
  if (apiError.fields) serverError.fields = apiError.fields;
  return serverError;
}

/** Turns anything thrown in a route handler into the dashboard's JSON error response. */
export function toErrorResponse(error: unknown): NextResponse<ApiErrorBody> {
  const apiError = toApiError(error);
  const body: ApiErrorBody = { error: { code: apiError.code, message: apiError.message } };
  if (apiError.fields) body.error.fields = apiError.fields;
  if (apiError.retryable !== undefined) body.error.retryable = apiError.retryable;
  if (apiError.requestId) body.error.requestId = apiError.requestId;
  const headers: Record<string, string> = { ...apiError.headers, "Cache-Control": "no-store" };
  if (apiError.retryAfterSeconds !== undefined) headers["Retry-After"] = String(apiError.retryAfterSeconds);
  return NextResponse.json(body, { status: httpStatusOf(apiError), headers });
}

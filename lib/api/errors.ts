import "server-only";

import { NextResponse } from "next/server";
import { z } from "zod";

import { log } from "@/lib/log";
import type { ServerError } from "@/lib/api/client/server-error";
import { UpstreamError, UpstreamForbiddenError, UpstreamRateLimitedError } from "@/lib/upstream/http";

/*
 * The one error mapper of the dashboard's HTTP API. Route handlers throw (ApiError, ZodError,
 * UpstreamError, anything) and end with `catch (error) { return toErrorResponse(error); }`.
 *
 * The body is always `{ error: { code, message, fields?, retryable? } }`. `code` is machine-readable so
 * the UI can translate it; `message` is English text an analyst can act on. No stack trace, upstream body,
 * URL or credential ever goes out; unexpected errors are logged (redacted) and answered with a generic 500.
 */

const STATUS = {
  bad_request: 400,
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  cross_origin: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  media_token_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
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
} as const;

export type ApiErrorCode = keyof typeof STATUS;

const DEFAULT_MESSAGES: Record<ApiErrorCode, string> = {
  bad_request: "The request is not valid.",
  validation: "Some fields are not valid.",
  unauthenticated: "Sign in to continue.",
  forbidden: "You do not have permission to do this.",
  cross_origin: "This request did not come from the dashboard's own pages, so it was refused.",
  not_found: "Not found.",
  method_not_allowed: "Method not allowed.",
  conflict: "This conflicts with the current state. Reload and try again.",
  media_token_expired: "This image link has expired. Load the images again.",
  payload_too_large: "The request is too large.",
  unsupported_media_type: "Send the body as JSON (Content-Type: application/json).",
  rate_limited: "Too many requests. Wait a moment and try again.",
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

export interface ApiErrorBody {
  /** `requestId`: the verification service's id of the failed call, for support (upstream failures only). */
  error: { code: ApiErrorCode; message: string; fields?: string[]; retryable?: boolean; requestId?: string };
}

/** An error a route handler throws on purpose; its code decides the status. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly fields: string[] | undefined;
  readonly retryable: boolean | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** Extra answer headers (a rate limit's scope and limit). */
  readonly headers: Record<string, string> | undefined;
  /** The service's request id, when an upstream call failed: support can trace the call with it. */
  readonly requestId: string | undefined;

  constructor(
    code: ApiErrorCode,
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
    this.name = "ApiError";
    this.code = code;
    this.status = STATUS[code];
    this.fields = options.fields?.length ? options.fields : undefined;
    this.retryable = options.retryable;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.headers = options.headers;
    this.requestId = options.requestId;
  }
}

/** The field paths of a ZodError, e.g. `document.number`, in order, without repeats. */
export function zodFieldPaths(error: z.ZodError): string[] {
  return [...new Set(error.issues.map((issue) => issue.path.map(String).join(".") || "(input)"))];
}

/** Maps an upstream failure to what the analyst sees (DESIGN.md "Errors a user sees"). */
export function fromUpstreamError(error: UpstreamError): ApiError {
  const mapped = mapUpstreamError(error);
  if (!error.requestId) return mapped;
  return new ApiError(mapped.code, mapped.message, {
    fields: mapped.fields,
    retryable: mapped.retryable,
    retryAfterSeconds: mapped.retryAfterSeconds,
    requestId: error.requestId,
  });
}

function mapUpstreamError(error: UpstreamError): ApiError {
  switch (error.kind) {
    case "validation": {
      // What was rejected: the fields the upstream named, else its own (redacted, digit-masked) message.
      const what = error.fields?.length
        ? `it rejected ${error.fields.join(", ")}`
        : error.upstreamMessage
          ? `it said: ${error.upstreamMessage}`
          : undefined;
      const message = what ? `The verification service rejected the request: ${what}.` : DEFAULT_MESSAGES.upstream_validation;
      return new ApiError("upstream_validation", message, { fields: error.fields });
    }
    case "unauthorized":
      return new ApiError("upstream_unauthorized");
    case "forbidden":
      return error instanceof UpstreamForbiddenError && error.reason === "ip_not_allowed"
        ? new ApiError("upstream_ip_not_allowed")
        : new ApiError("upstream_forbidden");
    case "not_found":
      // Never more: the upstream answers 404 for another integration's or environment's record too.
      return new ApiError("not_found", "Not found.");
    case "rate_limited":
      return new ApiError("upstream_rate_limited", undefined, {
        retryable: true,
        retryAfterSeconds: error instanceof UpstreamRateLimitedError ? error.retryAfterSeconds : undefined,
      });
    case "rejected":
      return new ApiError("upstream_rejected");
    case "timeout":
    case "unavailable":
    case "malformed":
      return new ApiError("upstream_unavailable", undefined, { retryable: true });
  }
}

/** Anything thrown, as the ApiError it is answered with (unexpected errors logged, redacted, as `internal`). */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof z.ZodError) {
    const fields = zodFieldPaths(error);
    const details = error.issues.map((issue) => `${issue.path.map(String).join(".") || "input"}: ${issue.message}`);
    return new ApiError("validation", `Invalid input: ${details.join("; ")}.`, { fields });
  }
  // Already logged by the base client (method, route, status, duration).
  if (error instanceof UpstreamError) return fromUpstreamError(error);
  log.error("unhandled_error", { error });
  return new ApiError("internal");
}

/**
 * What a server page hands its client component when its first fetch failed: the same code, message and
 * retry hint the route handler would have answered, as a plain value (lib/api/client/server-error.ts).
 */
export function serverErrorOf(error: unknown): ServerError {
  const apiError = toApiError(error);
  const serverError: ServerError = {
    status: apiError.status,
    code: apiError.code,
    message: apiError.message,
    retryable: apiError.retryable ?? apiError.status >= 500,
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
  return NextResponse.json(body, { status: apiError.status, headers });
}

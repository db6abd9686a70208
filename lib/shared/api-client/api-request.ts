/*
 * The browser's one client of the dashboard's own API (app/api/**, next-auth's endpoints included): every call
 * the browser makes goes through `send` here, the only `fetch` in browser code (lib/shared/api-client/
 * one-client.test.ts keeps it so). JSON calls (`apiRequest`), files and streams (`apiFile`, `apiResponse`: the
 * CSV exports, the images read ahead) and next-auth's form posts (`nextAuthPost`).
 *
 * Errors arrive in the dashboard's error model (`{ error: { code, message, fields?, retryable? } }`) and become
 * ApiRequestError, which also says whether the outcome of a write is unknown: a write that failed that way may
 * still have happened (a key created, an SMS sent), and the UI must say so before letting anyone send it again.
 *
 * A refusal asking for a step-up (401 `step_up_required`) is answered in place first: the step-up registry
 * (./step-up-registry.ts) is how it reaches the dialog that asks for the second factor, without this layer knowing
 * React; once the member has verified a factor, the refused request is sent again (once).
 */

import { apiInConnection, connectionOfPath } from "@/lib/shared/connection-path";
import { PAGE_VIEW_HEADER, pageViewId } from "@/lib/shared/page-view";

import { requestStepUp } from "./step-up-registry";

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: string[] = [],
    readonly retryable = false,
    /** From Retry-After (429). */
    readonly retryAfterSeconds: number | undefined = undefined,
    /** Extra headers some refusals carry (X-RateLimit-Scope, X-RateLimit-Limit). */
    readonly extra: { scope?: string; limit?: number; requestId?: string } = {},
  ) {
    super(message);
    this.name = "ApiRequestError";
  }

  /** The verification service's id of the failed call, shown so support can trace it. */
  get requestId(): string | undefined {
    return this.extra.requestId;
  }

  /** No answer, an internal error or an unavailable service: a write may or may not have happened. */
  get outcomeUnknown(): boolean {
    return this.status === 0 || this.status === 500 || this.status === 503 || this.status === 504;
  }
}

/** The refusal with its code and fields, or null for anything else (a failure before any answer has neither). */
export function refusalOf(error: unknown): ApiRequestError | null {
  return error instanceof ApiRequestError ? error : null;
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; fields?: unknown; retryable?: unknown; requestId?: unknown };
}

/** Reads a refused answer into an ApiRequestError (the body may be missing or not JSON). */
export async function errorFromResponse(response: Response): Promise<ApiRequestError> {
  const body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  const error = body?.error;
  const fields = Array.isArray(error?.fields) ? error.fields.filter((field): field is string => typeof field === "string") : [];
  const retryAfter = Number(response.headers.get("retry-after"));
  const limit = Number(response.headers.get("x-ratelimit-limit"));
  return new ApiRequestError(
    response.status,
    typeof error?.code === "string" ? error.code : response.status >= 500 ? "upstream_unavailable" : "internal",
    typeof error?.message === "string" ? error.message : response.statusText,
    fields,
    error?.retryable === true || response.status >= 500,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    {
      scope: response.headers.get("x-ratelimit-scope") ?? undefined,
      limit: Number.isFinite(limit) && limit > 0 ? limit : undefined,
      requestId: typeof error?.requestId === "string" ? error.requestId : undefined,
    },
  );
}

export function networkError(): ApiRequestError {
  return new ApiRequestError(0, "network", "The dashboard could not be reached.", [], true);
}

export interface ApiRequestInit {
  method?: string;
  body?: unknown;
  /** A form's fields instead of a JSON body (next-auth's endpoints). */
  form?: Record<string, string>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * Whether a 401 `step_up_required` opens the step-up dialog (`requestStepUp`) and, once the member verified a
   * factor, sends the request again. On by default; the dialog's own calls turn it off.
   */
  stepUp?: boolean;
}

export const STEP_UP_REQUIRED = "step_up_required";

/** A JSON body, or a form's fields (next-auth's endpoints read `application/x-www-form-urlencoded`). */
function encodedBody(init: ApiRequestInit): { type?: string; body?: string | URLSearchParams } {
  if (init.form) return { type: "application/x-www-form-urlencoded", body: new URLSearchParams(init.form) };
  if (init.body !== undefined) return { type: "application/json", body: JSON.stringify(init.body) };
  return {};
}

async function send(input: string, init: ApiRequestInit): Promise<Response> {
  const { type, body } = encodedBody(init);
  try {
    // The page's connection (its address's /c/{connection} prefix) goes with every call (lib/shared/connection-path.ts).
    const connection = typeof window === "undefined" ? null : connectionOfPath(window.location.pathname);
    return await fetch(apiInConnection(input, connection), {
      method: init.method ?? "GET",
      credentials: "same-origin",
      cache: "no-store",
      signal: init.signal,
      // The page view this call belongs to, so the audit page can group the events of one view (../page-view.ts).
      headers: {
        accept: "application/json",
        [PAGE_VIEW_HEADER]: pageViewId(),
        ...(type ? { "content-type": type } : {}),
        ...init.headers,
      },
      body,
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw networkError();
  }
}

/**
 * Sends the call, answers a step-up refusal in place (once), and refuses any answer that is not a success: the
 * answer itself, for a caller that reads its body as a stream (a CSV export) or as bytes (an image).
 */
export async function apiResponse(input: string, init: ApiRequestInit = {}): Promise<Response> {
  let response = await send(input, init);
  if (response.status === 401 && init.stepUp !== false) {
    const refusal = await errorFromResponse(response);
    if (refusal.code !== STEP_UP_REQUIRED) throw refusal;
    // The action needs a recent second factor: ask for it in place, then send the same request once more, so
    // the form that made it keeps everything typed. Given up: the call fails with the refusal (the dialog's
    // wording when it has one). A retry refused again is not asked about a second time (no loop).
    const outcome = await requestStepUp(refusal);
    if (!outcome.verified) {
      throw new ApiRequestError(
        refusal.status,
        refusal.code,
        outcome.message ?? refusal.message,
        refusal.fields,
        false,
        undefined,
        refusal.extra,
      );
    }
    response = await send(input, init);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}

export async function apiRequest<T>(input: string, init: ApiRequestInit = {}): Promise<T> {
  const response = await apiResponse(input, init);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/**
 * A file the API answers as an attachment (a report's CSV or PDF), through the same call as `apiRequest`
 * (step-up included): its bytes and the name the server gave it. `accept` names the file's type.
 */
export async function apiFile(
  input: string,
  init: ApiRequestInit & { accept: string; fallbackName: string },
): Promise<{ blob: Blob; filename: string }> {
  const response = await apiResponse(input, { ...init, headers: { ...init.headers, accept: init.accept } });
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? init.fallbackName;
  return { blob: await response.blob(), filename };
}

/**
 * POSTs to one of next-auth's endpoints the way its own client does (a fresh CSRF token, a form body,
 * `json=true`) and returns the URL next-auth would have redirected to. This is all the sign-in form and
 * the SSO button need of next-auth/react, which would add its whole client (session polling, broadcast
 * channel) to the sign-in page for it.
 */
export async function nextAuthPost(path: string, fields: Record<string, string>): Promise<URL> {
  const { csrfToken } = await apiRequest<{ csrfToken?: string }>("/api/auth/csrf", { stepUp: false });
  if (!csrfToken) throw new Error("no CSRF token");
  const response = await send(path, { method: "POST", form: { ...fields, csrfToken, json: "true" } });
  const { url } = (await response.json()) as { url?: string };
  // next-auth answers its redirect as JSON (a 302 status without a Location), so `ok` says nothing here.
  if (!url) throw new Error(`${path} answered ${response.status} without a URL`);
  return new URL(url, window.location.origin);
}

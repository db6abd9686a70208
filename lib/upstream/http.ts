import "server-only";

import { trace } from "@opentelemetry/api";
import { FormData, request as undiciRequest } from "undici";
import { z } from "zod";

import { log, registerSecrets } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";
import { inSpan, SpanKind } from "@/lib/tracing/tracer";
import { countUpstreamCall } from "@/lib/upstream/call-count";
import { parseErrorBody } from "@/lib/upstream/error-body";
import {
  REQUEST_ID_HEADER,
  UpstreamError,
  UpstreamForbiddenError,
  UpstreamMalformedResponseError,
  UpstreamNotFoundError,
  UpstreamRateLimitedError,
  UpstreamRejectedError,
  UpstreamTimeoutError,
  UpstreamUnauthorizedError,
  UpstreamUnavailableError,
  UpstreamValidationError,
  type UpstreamErrorInit,
  type UpstreamName,
} from "@/lib/upstream/errors";

/*
 * The shared base of the upstream clients (core.ts, partners.ts).
 *
 * - Calls go out through undici's `request` (the library behind Node's fetch, without the WHATWG stream
 *   and Request/Response objects fetch builds around every call, nor Next's instrumentation of fetch):
 *   a third of the CPU a fetch costs, and every list view makes one.
 * - Every attempt has a timeout (AbortSignal), so a hung upstream cannot hold a route handler forever.
 * - Only GETs are retried, and only on network errors, timeouts and 5xx, with exponential backoff and
 *   jitter: a retried POST could create a second verification, integration or SMS.
 * - Redirects are not followed (`redirect: "manual"`): an API answering 3xx is not what the contract says,
 *   and following it would carry the X-API-Key header to wherever it points.
 * - Error bodies are never trusted to be JSON; both shapes seen in the wild are read:
 *   `{message, errors: {...} | [...]}` and `{error: {code, message, details}}`.
 * - 2xx bodies are validated with zod; one that does not parse or does not match is a malformed response.
 * - Errors and logs carry the method, the route template and the status, never a full URL, a query
 *   value, a header value or a response body (bodies may hold personal data or signed URLs).
 */

/** A request id as the service sent it, if it looks like an identifier (it is shown and logged). */
function requestIdOf(headers: Headers): string | undefined {
  const value = headers.get(REQUEST_ID_HEADER)?.trim();
  return value && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// The client

export interface HttpClientOptions {
  /** Base URL of the API, without a trailing slash (paths are appended). */
  baseUrl: string;
  /** Per-attempt timeout. */
  timeoutMs?: number;
  /** Extra attempts for a GET after a network error, a timeout or a 5xx. */
  readRetries?: number;
  /**
   * One total deadline for a GET across all its attempts and backoffs, so a hanging upstream is reported
   * once, within this time, instead of after every attempt's own timeout in turn.
   */
  readDeadlineMs?: number;
  /** First backoff delay; doubles per retry, with jitter. */
  retryBaseDelayMs?: number;
}

/** One HTTP exchange as the client needs it: the whole body read as text, under the request's signal. */
interface TransportRequest {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string | FormData;
  signal: AbortSignal;
}

interface TransportAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * undici's `request`: no redirect is followed (none is configured), the signal bounds the headers and the
 * body alike, and the body is always read to its end so the connection goes back to the pool.
 */
async function send(url: string, { method, headers, body, signal }: TransportRequest): Promise<TransportAnswer> {
  const answer = await undiciRequest(url, { method, headers, body, signal });
  const text = await answer.body.text();
  const kept = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const item of value) kept.append(name, item);
    else if (value !== undefined) kept.set(name, value);
  }
  return { status: answer.statusCode, headers: kept, text };
}

export interface UpstreamRequest<T> {
  method: "GET" | "POST";
  /**
   * The operation, counted against the provider key's quota as `<upstream>.<operation>` per attempt
   * (lib/upstream/call-count.ts): `list_verifications`, `login`…
   */
  operation: string;
  /** Path template for logs and errors, e.g. `/public/validations-persons/{public_id}`. */
  route: string;
  /** The real path, with every dynamic segment already validated and encoded. */
  path: string;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  /** Sent as multipart/form-data (every partners write). */
  form?: Record<string, string | undefined>;
  /** Sent as application/json (core creation). */
  json?: unknown;
  /** Output schema of a 2xx body. */
  schema: z.ZodType<T>;
  /**
   * For operations whose success body the contract does not show: an empty or non-JSON 2xx body is handed
   * to the schema as `undefined` instead of being a malformed response.
   */
  bodyOptional?: boolean;
  /**
   * A POST that only obtains something to read with (a login, a token): one attempt, like every POST, but
   * bounded by the read deadline, since the read waiting on it is.
   */
  withinReadDeadline?: true;
  /** Core read routes: a 403 means the IP allow-list unless the body names a permission problem. */
  forbiddenMeansIpNotAllowed?: boolean;
  signal?: AbortSignal;
}

export interface UpstreamResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  /** Date.now() when the answer arrived (for lifetimes given in seconds, like signed URLs). */
  receivedAt: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_READ_RETRIES = 2;
const DEFAULT_READ_DEADLINE_MS = 10_000;
// A retry with less time left than this would only turn a clear failure into a later timeout.
const MIN_ATTEMPT_MS = 250;
const DEFAULT_RETRY_BASE_DELAY_MS = 250;

/** Thrown inside an attempt to say "this may be retried" (GET only). */
class RetryableFailure {
  constructor(readonly error: UpstreamError) {}
}

export class HttpClient {
  readonly upstream: UpstreamName;
  protected readonly baseUrl: string;
  protected readonly timeoutMs: number;
  protected readonly readRetries: number;
  protected readonly readDeadlineMs: number;
  protected readonly retryBaseDelayMs: number;

  constructor(upstream: UpstreamName, options: HttpClientOptions, secrets: Array<string | undefined> = []) {
    this.upstream = upstream;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.readRetries = options.readRetries ?? DEFAULT_READ_RETRIES;
    this.readDeadlineMs = options.readDeadlineMs ?? DEFAULT_READ_DEADLINE_MS;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
    registerSecrets(...secrets);
  }

  protected async request<T>(request: UpstreamRequest<T>): Promise<UpstreamResponse<T>> {
    const read = request.method === "GET";
    const attempts = read ? 1 + this.readRetries : 1;
    const deadline = read || request.withinReadDeadline ? Date.now() + this.readDeadlineMs : Infinity;
    for (let attempt = 1; ; attempt++) {
      try {
        // A span per attempt (lib/tracing/tracer.ts), named by the upstream and operation: never the path or a value.
        return await inSpan(
          `${this.upstream}.${request.operation}`,
          { "kyc.upstream": this.upstream, "kyc.operation": request.operation, "kyc.attempt": attempt },
          () => this.attempt(request, attempt, Math.min(this.timeoutMs, deadline - Date.now())),
          SpanKind.CLIENT,
        );
      } catch (failure) {
        if (!(failure instanceof RetryableFailure)) throw failure;
        if (attempt >= attempts || request.signal?.aborted) throw failure.error;
        const pause = this.backoff(attempt);
        if (deadline - Date.now() - pause < MIN_ATTEMPT_MS) throw failure.error;
        await sleep(pause);
      }
    }
  }

  /** Exponential backoff with "equal jitter": half fixed, half random, so parallel callers spread out. */
  private backoff(attempt: number): number {
    const ceiling = this.retryBaseDelayMs * 2 ** (attempt - 1);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  private buildUrl(request: UpstreamRequest<unknown>): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) params.append(name, value);
    }
    const query = params.toString();
    // No `?` at all without parameters: the core files route refuses even an empty query string.
    return `${this.baseUrl}${request.path}${query ? `?${query}` : ""}`;
  }

  private buildBody(request: UpstreamRequest<unknown>, headers: Record<string, string>): string | FormData | undefined {
    if (request.form) {
      const form = new FormData();
      for (const [name, value] of Object.entries(request.form)) {
        if (value !== undefined) form.append(name, value);
      }
      return form; // undici sets the multipart content type with its boundary
    }
    if (request.json !== undefined) {
      headers["content-type"] = "application/json";
      return JSON.stringify(request.json);
    }
    return undefined;
  }

  private async attempt<T>(request: UpstreamRequest<T>, attempt: number, timeoutMs: number): Promise<UpstreamResponse<T>> {
    const { method, route } = request;
    const init: UpstreamErrorInit = { upstream: this.upstream, method, route, status: null };
    // Lower-case names, so a caller's header cannot sit beside ours under another spelling.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    headers.accept = "application/json";
    const body = this.buildBody(request, headers);
    const timeout = AbortSignal.timeout(Math.max(1, timeoutMs));
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    const started = performance.now();
    // Before sending: an attempt that times out or fails still reached (or may have reached) the service.
    countUpstreamCall(`${this.upstream}.${request.operation}`);
    const done = (status: number | null, outcome: string) => {
      const fields = {
        upstream: this.upstream,
        method,
        route,
        status,
        durationMs: Math.round(performance.now() - started),
        attempt,
        outcome,
      };
      if (outcome === "ok") log.info("upstream_call", fields);
      else log.warn("upstream_call", fields);
      trace.getActiveSpan()?.setAttributes({ "kyc.status": status ?? 0, "kyc.outcome": outcome });
      metrics().upstreamCalls.observe(
        { upstream: this.upstream, operation: request.operation, status: status === null ? "none" : String(status), outcome },
        fields.durationMs / 1000,
      );
    };

    let response: TransportAnswer;
    try {
      // The body is read under the same timeout: a server that sends headers then stalls is a timeout too.
      response = await send(this.buildUrl(request), { method, headers, body, signal });
    } catch (error) {
      if (request.signal?.aborted && !timeout.aborted) {
        done(null, "aborted");
        throw request.signal.reason instanceof Error ? request.signal.reason : new Error("aborted");
      }
      if (timeout.aborted || (error instanceof Error && error.name === "TimeoutError")) {
        done(null, "timeout");
        throw new RetryableFailure(new UpstreamTimeoutError(init, `no answer within ${Math.round(timeoutMs)} ms`));
      }
      // Only the error code (ECONNREFUSED…) is kept: undici's messages may quote the URL.
      const code = networkErrorCode(error);
      done(null, "network_error");
      throw new RetryableFailure(new UpstreamUnavailableError(init, `network error${code ? ` (${code})` : ""}`));
    }

    const { status, text } = response;
    init.status = status;
    init.requestId = requestIdOf(response.headers);
    if (status >= 200 && status < 300) {
      const data = this.parseSuccess(request, text, init);
      done(status, data.ok ? "ok" : "malformed");
      if (!data.ok) throw data.error;
      return { data: data.value, status, headers: response.headers, receivedAt: Date.now() };
    }

    done(status, "error");
    const error = this.errorFor(request, response, text, init);
    if (status >= 500) throw new RetryableFailure(error);
    throw error;
  }

  private parseSuccess<T>(
    request: UpstreamRequest<T>,
    text: string,
    init: UpstreamErrorInit,
  ): { ok: true; value: T } | { ok: false; error: UpstreamMalformedResponseError } {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      if (!request.bodyOptional) return { ok: false, error: new UpstreamMalformedResponseError(init, "the body is not JSON") };
      body = undefined;
    }
    const parsed = request.schema.safeParse(body);
    if (parsed.success) return { ok: true, value: parsed.data };
    // Paths only: zod v4 issues do not carry the input, and the body itself may hold personal data.
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.map(String).join(".") || "(body)"))];
    return {
      ok: false,
      error: new UpstreamMalformedResponseError({ ...init, fields }, `unexpected body shape at ${fields.slice(0, 5).join(", ")}`),
    };
  }

  private errorFor(request: UpstreamRequest<unknown>, response: TransportAnswer, text: string, base: UpstreamErrorInit): UpstreamError {
    const status = response.status;
    const parsed = parseErrorBody(text);
    const init: UpstreamErrorInit = { ...base, code: parsed.code, fields: parsed.fields, upstreamMessage: parsed.message };
    const codeSuffix = parsed.code ? ` ${parsed.code}` : "";
    const fieldSuffix = parsed.fields.length ? ` (${parsed.fields.join(", ")})` : "";

    if (status === 400 || status === 422) return new UpstreamValidationError(init, `${status}${codeSuffix} rejected${fieldSuffix}`);
    if (status === 401) return new UpstreamUnauthorizedError(init, `401${codeSuffix} unauthorized`);
    if (status === 403) {
      const permission = /permission/i.test(`${parsed.code ?? ""} ${parsed.message ?? ""}`);
      const reason = permission ? "permission" : request.forbiddenMeansIpNotAllowed ? "ip_not_allowed" : "other";
      return new UpstreamForbiddenError(init, `403${codeSuffix} forbidden (${reason})`, reason);
    }
    if (status === 404) return new UpstreamNotFoundError(init, `404${codeSuffix} not found`);
    if (status === 429) return new UpstreamRateLimitedError(init, `429${codeSuffix} rate limited`, retryAfter(response.headers));
    if (status >= 500) return new UpstreamUnavailableError(init, `${status}${codeSuffix} server error`);
    if (status >= 300 && status < 400) return new UpstreamRejectedError(init, `${status} unexpected redirect`);
    return new UpstreamRejectedError(init, `${status}${codeSuffix} refused${fieldSuffix}`);
  }
}

function retryAfter(headers: Headers): number | undefined {
  const value = headers.get("retry-after");
  if (value && /^\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

function networkErrorCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = cause?.code ?? (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && /^[A-Z_]+$/.test(code) ? code : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Path segment encoding for identifiers already validated by the caller (defence in depth). */
export function pathSegment(value: string): string {
  return encodeURIComponent(value);
}

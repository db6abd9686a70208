import "server-only";

/* Every failure of an upstream call: one class per kind, each naming the service and safe to log. */

export type UpstreamName = "core" | "partners";

export type UpstreamErrorKind =
  "validation" | "unauthorized" | "forbidden" | "not_found" | "rate_limited" | "rejected" | "timeout" | "unavailable" | "malformed";

export interface UpstreamErrorInit {
  upstream: UpstreamName;
  method: string;
  route: string;
  status: number | null;
  code?: string;
  fields?: string[];
  /** The upstream's own message, redacted and shortened; shown to analysts only for validation errors. */
  upstreamMessage?: string;
  /** The service's id of the call (REQUEST_ID_HEADER), so support can trace it. */
  requestId?: string;
}

/**
 * ASSUMPTION (docs/assumptions.md#request-id): the provider's example logs the failed call's `X-Request-Id` response header
 * (Legitimuz-Tech/legitimuz-examples pocs/next-checkout/app/api/verificacoes/route.ts); no page documents it.
 */
export const REQUEST_ID_HEADER = "x-request-id";

/** Every upstream failure. `message` is safe to log: no URL, query value, credential or body. */
export abstract class UpstreamError extends Error {
  abstract readonly kind: UpstreamErrorKind;
  readonly upstream: UpstreamName;
  readonly method: string;
  readonly route: string;
  readonly status: number | null;
  readonly code: string | undefined;
  readonly fields: string[] | undefined;
  readonly upstreamMessage: string | undefined;
  readonly requestId: string | undefined;

  constructor(init: UpstreamErrorInit, summary: string) {
    super(`${init.upstream} ${init.method} ${init.route}: ${summary}`);
    this.name = new.target.name;
    this.upstream = init.upstream;
    this.method = init.method;
    this.route = init.route;
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields?.length ? init.fields : undefined;
    this.upstreamMessage = init.upstreamMessage;
    this.requestId = init.requestId;
  }
}

/** 400 / 422: the upstream rejected what was sent; `fields` names the rejected fields or parameters. */
export class UpstreamValidationError extends UpstreamError {
  override readonly kind = "validation";
}

/** 401: the credential was refused (for partners: after one re-login). */
export class UpstreamUnauthorizedError extends UpstreamError {
  override readonly kind = "unauthorized";
}

/**
 * 403. On core read routes the contract says a 403 is raised before the API when this server's IP is not
 * allowed, so there it means `ip_not_allowed` unless the body says it is a permission problem.
 */
export class UpstreamForbiddenError extends UpstreamError {
  override readonly kind = "forbidden";
  constructor(
    init: UpstreamErrorInit,
    summary: string,
    readonly reason: "ip_not_allowed" | "permission" | "other",
  ) {
    super(init, summary);
  }
}

/** 404. Also what the core API answers for another integration's or environment's verification. */
export class UpstreamNotFoundError extends UpstreamError {
  override readonly kind = "not_found";
}

/** 429. `retryAfterSeconds` from the Retry-After header when it is a number of seconds. */
export class UpstreamRateLimitedError extends UpstreamError {
  override readonly kind = "rate_limited";
  constructor(
    init: UpstreamErrorInit,
    summary: string,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(init, summary);
  }
}

/** Any other 4xx (405, 409, 415…) and unexpected redirects. */
export class UpstreamRejectedError extends UpstreamError {
  override readonly kind = "rejected";
}

/** No answer within the timeout (after the retries a GET is allowed). */
export class UpstreamTimeoutError extends UpstreamError {
  override readonly kind = "timeout";
}

/** 5xx, connection refused or reset (after the retries a GET is allowed). */
export class UpstreamUnavailableError extends UpstreamError {
  override readonly kind = "unavailable";
}

/** A success status whose body is not JSON or does not match the contract's shape. */
export class UpstreamMalformedResponseError extends UpstreamError {
  override readonly kind = "malformed";
}

export function isUpstreamError(error: unknown): error is UpstreamError {
  return error instanceof UpstreamError;
}

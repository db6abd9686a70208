import "server-only";

import { z } from "zod";

import { registerRecentSecret } from "@/lib/log";
import { UpstreamMalformedResponseError, UpstreamUnauthorizedError } from "@/lib/upstream/errors";
import { HttpClient, type HttpClientOptions } from "@/lib/upstream/http";
import { loginResponseWire } from "@/lib/upstream/partners-validation";
import { lifetimeSeconds, renewAt, type CachedToken } from "@/lib/upstream/token-lifetime";

/* The partners API's login and SMS JWT, cached and renewed (partners.ts says how). */

export interface PartnersClientOptions extends HttpClientOptions {
  username: string;
  password: string;
  /** The client's domain, as registered on the integration key. */
  domain: string;
  /** The integration key (uuid) used as `token` on KYC, federal revenue and SMS calls. */
  integrationToken: string;
  /** Put in the widget address the person receives; defaults to integrationToken. */
  widgetIntegrationToken?: string;
  /** ASSUMPTION (docs/assumptions.md#partners-domain-header): header carrying the domain outside the federal revenue lookup and SMS. */
  domainHeader?: string;
  /** ASSUMPTION (docs/assumptions.md#login): the login `expiration` field, in seconds (PARTNERS_TOKEN_TTL_SECONDS). */
  tokenTtlSeconds?: number;
  /** ASSUMPTION (docs/assumptions.md#sms-jwt-request): the SMS JWT request and its answer's field (PARTNERS_JWT_PATH, PARTNERS_JWT_RESPONSE_FIELD). */
  jwtPath?: string;
  jwtResponseField?: string;
  /**
   * SMS header names (docs/assumptions.md#sms-headers): the JWT (default Authorization, as "Bearer <jwt>") and the
   * integration token (default x-api-key), as the reference shows them; configurable (PARTNERS_SMS_JWT_HEADER,
   * PARTNERS_SMS_TOKEN_HEADER).
   */
  smsJwtHeader?: string;
  smsTokenHeader?: string;
  /** Clock in milliseconds (tests). */
  now?: () => number;
}

// ASSUMPTION (docs/assumptions.md#sms-jwt-request): the SMS JWT's lifetime when it is not a JWT and the answer
// states none (the sandbox: 10 min).
const SMS_JWT_FALLBACK_SECONDS = 300;

const LOGIN_ROUTE = "/auth/login";

/** The partners client's credentials and tokens; PartnersClient (partners.ts) adds the operations. */
export abstract class PartnersSession extends HttpClient {
  private readonly username: string;
  private readonly password: string;
  protected readonly domain: string;
  protected readonly integrationToken: string;
  protected readonly widgetIntegrationToken: string;
  private readonly domainHeader: string;
  private readonly tokenTtlSeconds: number;
  private readonly jwtPath: string;
  private readonly jwtResponseField: string;
  private readonly smsJwtHeader: string;
  private readonly smsTokenHeader: string;
  private readonly now: () => number;

  private bearer: CachedToken | undefined;
  private loginInFlight: Promise<string> | undefined;
  private smsJwt: CachedToken | undefined;
  private smsJwtInFlight: Promise<string> | undefined;

  constructor(options: PartnersClientOptions) {
    super("partners", options, [options.password, options.integrationToken, options.widgetIntegrationToken]);
    this.username = options.username;
    this.password = options.password;
    this.domain = options.domain;
    this.integrationToken = options.integrationToken;
    this.widgetIntegrationToken = options.widgetIntegrationToken ?? options.integrationToken;
    this.domainHeader = options.domainHeader ?? "Origin";
    this.tokenTtlSeconds = options.tokenTtlSeconds ?? 3600;
    this.jwtPath = options.jwtPath ?? "/external/generate_jwt";
    this.jwtResponseField = options.jwtResponseField ?? "token";
    this.smsJwtHeader = options.smsJwtHeader ?? "Authorization";
    this.smsTokenHeader = options.smsTokenHeader ?? "x-api-key";
    this.now = options.now ?? Date.now;
  }

  // -------------------------------------------------------------------------------------------------------
  // Bearer token

  /** A valid bearer token: the cached one, or the one login in flight, or a new login. */
  private bearerToken(): Promise<string> {
    if (this.bearer && this.now() < this.bearer.renewAt) return Promise.resolve(this.bearer.value);
    this.loginInFlight ??= this.login().finally(() => {
      this.loginInFlight = undefined;
    });
    return this.loginInFlight;
  }

  /**
   * Readiness: one real login, the cheapest call that proves the address, the credentials and the shape
   * of the answer. Always a new login, never the cached token.
   */
  async probe(): Promise<void> {
    await this.login();
  }

  /** POST /auth/login (multipart: username, password, expiration) with the domain header. */
  private async login(): Promise<string> {
    const requestedAt = this.now();
    const { data } = await this.request({
      method: "POST",
      operation: "login",
      route: LOGIN_ROUTE,
      path: LOGIN_ROUTE,
      withinReadDeadline: true,
      form: { username: this.username, password: this.password, expiration: String(this.tokenTtlSeconds) },
      headers: { [this.domainHeader]: this.domain },
      schema: loginResponseWire,
    });
    const token = (data.token ?? data.access_token ?? data.accessToken) as string;
    registerRecentSecret(token);
    const lifetime = lifetimeSeconds(token, requestedAt, data.expires_in, this.tokenTtlSeconds, this.tokenTtlSeconds);
    this.bearer = { value: token, renewAt: renewAt(requestedAt, lifetime) };
    return token;
  }

  /** Forgets a token the service refused, unless another caller already replaced it. */
  private dropBearer(token: string): void {
    if (this.bearer?.value === token) this.bearer = undefined;
  }

  /** Runs `call` with a bearer token; on a 401, logs in again once and runs it once more. */
  protected async authorized<T>(call: (bearer: string) => Promise<T>): Promise<T> {
    const token = await this.bearerToken();
    try {
      return await call(token);
    } catch (error) {
      if (!(error instanceof UpstreamUnauthorizedError)) throw error;
      this.dropBearer(token);
      return await call(await this.bearerToken());
    }
  }

  protected headers(bearer: string, extra: Record<string, string> = {}): Record<string, string> {
    return { Authorization: `Bearer ${bearer}`, [this.domainHeader]: this.domain, ...extra };
  }

  // -------------------------------------------------------------------------------------------------------
  // SMS JWT

  private smsJwtToken(): Promise<string> {
    if (this.smsJwt && this.now() < this.smsJwt.renewAt) return Promise.resolve(this.smsJwt.value);
    this.smsJwtInFlight ??= this.generateSmsJwt().finally(() => {
      this.smsJwtInFlight = undefined;
    });
    return this.smsJwtInFlight;
  }

  /** POST {jwtPath} (multipart `token` = integration token) with the bearer token; reads {jwtResponseField}. */
  private async generateSmsJwt(): Promise<string> {
    const field = this.jwtResponseField;
    const schema = z.looseObject({ [field]: z.string().min(1), expires_in: z.number().positive().optional() });
    const requestedAt = this.now();
    const data = await this.authorized(async (bearer) => {
      const response = await this.request({
        method: "POST",
        operation: "generate_jwt",
        route: this.jwtPath,
        path: this.jwtPath,
        form: { token: this.integrationToken },
        headers: this.headers(bearer),
        schema,
      });
      return response.data;
    });
    const jwt = data[field];
    // The schema guarantees a string; the index type of a computed key is wider.
    if (typeof jwt !== "string")
      throw new UpstreamMalformedResponseError(
        { upstream: "partners", method: "POST", route: this.jwtPath, status: 200, fields: [field] },
        "no JWT",
      );
    registerRecentSecret(jwt);
    const stated = typeof data.expires_in === "number" ? data.expires_in : undefined;
    const lifetime = lifetimeSeconds(jwt, requestedAt, stated, SMS_JWT_FALLBACK_SECONDS);
    this.smsJwt = { value: jwt, renewAt: renewAt(requestedAt, lifetime) };
    return jwt;
  }

  /**
   * Runs an SMS call with its headers: the login bearer in Authorization, then the SMS JWT in
   * {smsJwtHeader} (which replaces Authorization when that is its name), the integration token in
   * {smsTokenHeader}, and the domain in Origin (the reference) as well as in the domain header when that is
   * another one. On a 401 the JWT and the bearer are both renewed, once.
   */
  protected async smsCall<T>(call: (headers: Record<string, string>) => Promise<T>): Promise<T> {
    return this.authorized(async (bearer) => {
      const jwt = await this.smsJwtToken();
      const headers = new Headers(this.headers(bearer));
      headers.set("Origin", this.domain);
      headers.set(this.smsJwtHeader, `Bearer ${jwt}`);
      headers.set(this.smsTokenHeader, this.integrationToken);
      try {
        return await call(Object.fromEntries(headers));
      } catch (error) {
        if (error instanceof UpstreamUnauthorizedError && this.smsJwt?.value === jwt) this.smsJwt = undefined;
        throw error;
      }
    });
  }
}

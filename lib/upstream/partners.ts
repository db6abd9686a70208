import "server-only";

import { z } from "zod";

import { config, type Config } from "@/lib/config";
import { registerConfigSecrets, registerRecentSecret } from "@/lib/log";
import { cpfSchema } from "@/lib/shared/cpf-schema";
import { phoneSchema, smsCodeSchema } from "@/lib/shared/phone";
import { UpstreamMalformedResponseError, UpstreamUnauthorizedError } from "@/lib/upstream/errors";
import { HttpClient, type HttpClientOptions } from "@/lib/upstream/http";
import type {
  CpfHistoryRecord,
  FederalRevenueRecord,
  Integration,
  KycSession,
  SmsSendResult,
  SmsValidateResult,
} from "@/lib/upstream/model/partners";
import {
  cpfHistoryResponseWire,
  createIntegrationResponseWire,
  federalRevenueResponseWire,
  kycSessionResponseWire,
  reshapeCpfHistory,
  reshapeFederalRevenue,
  reshapeIntegration,
  reshapeKycSession,
} from "@/lib/upstream/partners-validation";

/*
 * Client of the partners API ({base_url}): login, integration keys, CPF lookups, KYC sessions, SMS codes.
 *
 * - Every write is multipart/form-data (contract) and is never retried after a failure of its own; GETs
 *   are retried by the base client on network errors, timeouts and 5xx.
 * - The bearer token from POST /auth/login is cached in memory and renewed shortly before it expires.
 *   However many callers need a token at once, one login is in flight and they all share it.
 * - A 401 on an operation means the token went stale early (revoked, server restarted, clock skew): the
 *   client logs in again once and repeats that call once. A 401 cannot have run the operation, so repeating
 *   a write here is safe. A second 401 is thrown: no loop.
 * - The client's domain goes in a header on every call (name configurable; the contract does not show it),
 *   and in `Origin` on the federal revenue lookup (contract).
 * - SMS calls follow the provider's API reference (https://legitimuz.mintlify.app/api-reference/sms/validate-code,
 *   docs/assumptions.md#sms-headers): the JWT from POST {jwtPath} as a Bearer token, the integration token in
 *   `x-api-key`, the client's domain in `Origin`; `phone` (and on validate `code`) in the query, `phone` and
 *   `message` as form fields. Header names stay configurable. The JWT is cached like the bearer token.
 */

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

/**
 * ASSUMPTION (docs/assumptions.md#login): the contract does not show the login answer. The token is read from `token`, `access_token`
 * or `accessToken`, and an `expires_in` (seconds) is used when present.
 */
const loginResponseWire = z
  .looseObject({
    token: z.string().min(1).optional(),
    access_token: z.string().min(1).optional(),
    accessToken: z.string().min(1).optional(),
    expires_in: z.number().positive().optional(),
  })
  .refine((body) => body.token ?? body.access_token ?? body.accessToken, { message: "no token in the login answer", path: ["token"] });

/** ASSUMPTION (docs/assumptions.md#sms-answers): the SMS answers are not shown; a 200 is success, `valid: false` is read. */
const smsResponseWire = z.unknown();

// ---------------------------------------------------------------------------------------------------------
// Input schemas: bad input is refused before any call, naming the field (ZodError).

/**
 * A CPF, with or without punctuation; sent as its 11 digits (ASSUMPTION (docs/assumptions.md#cpf-format): the
 * contract shows no format).
 * The same rules as the forms use (lib/shared/cpf.ts), so the client refuses bad input even when
 * called directly.
 */
export const cpfInput = cpfSchema;

/** Digits with country code (contract), by the dashboard's one phone rule (lib/shared/phone.ts). */
export const phoneInput = phoneSchema;

/** The code received, by the dashboard's one SMS code rule (lib/shared/phone-rules.ts, docs/assumptions.md#sms-code). */
export const smsCodeInput = smsCodeSchema;

const smsMessage = z.string().min(1).max(480).optional();

export const createIntegrationInputSchema = z.object({
  domain: z.string().trim().min(1).max(253),
  label: z.string().trim().min(1).max(120),
});
export const kycSessionInputSchema = z.object({
  cpf: cpfInput,
  lang: z
    .string()
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/, "must be a language tag like pt-BR")
    .optional(),
});
export const sendSmsInputSchema = z.object({ phone: phoneInput, message: smsMessage });
export const validateSmsInputSchema = z.object({
  phone: phoneInput,
  code: smsCodeInput,
  message: smsMessage,
});

// ---------------------------------------------------------------------------------------------------------
// Token lifetimes

interface CachedToken {
  value: string;
  /** Date.now()-based instant after which the token is renewed before use. */
  renewAt: number;
}

/** `{exp, iat}` of a JWT, or undefined for an opaque token. The signature is not ours to check. */
function jwtTimes(token: string): { exp?: number; iat?: number } | undefined {
  const payload = token.split(".")[1];
  if (token.split(".").length !== 3 || !payload) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!claims || typeof claims !== "object") return undefined;
    const { exp, iat } = claims as { exp?: unknown; iat?: unknown };
    return { exp: typeof exp === "number" ? exp : undefined, iat: typeof iat === "number" ? iat : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Lifetime of a token in seconds: the JWT's own `exp - iat` (independent of clock skew between us and the
 * service) or `exp - now`, else the lifetime the answer states, else the fallback; never above `cap`.
 */
function lifetimeSeconds(token: string, nowMs: number, stated: number | undefined, fallback: number, cap = Infinity): number {
  const times = jwtTimes(token);
  let lifetime = fallback;
  if (times?.exp !== undefined) lifetime = times.exp - (times.iat ?? nowMs / 1000);
  else if (stated !== undefined) lifetime = stated;
  // A JWT already expired by our clock is trusted no more than the fallback; a 401 then renews it.
  if (!(lifetime > 0)) lifetime = fallback;
  return Math.min(lifetime, cap);
}

/** Renew 10 % of the lifetime early, at most a minute early. */
function renewAt(obtainedAtMs: number, lifetime: number): number {
  return obtainedAtMs + (lifetime - Math.min(60, lifetime * 0.1)) * 1000;
}

// ASSUMPTION (docs/assumptions.md#sms-jwt-request): the SMS JWT's lifetime when it is not a JWT and the answer
// states none (the sandbox: 10 min).
const SMS_JWT_FALLBACK_SECONDS = 300;

const ROUTES = {
  login: "/auth/login",
  integrations: "/integrations",
  cpfHistory: "/kyc/cpf-history",
  sdkUrl: "/kyc/get-sdk-url",
  sendCode: "/sms/send-code",
  validateCode: "/sms/validate-code",
  federalRevenue: "/receita-federal/cpf",
} as const;

export class PartnersClient extends HttpClient {
  private readonly username: string;
  private readonly password: string;
  private readonly domain: string;
  private readonly integrationToken: string;
  private readonly widgetIntegrationToken: string;
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

  static fromConfig(cfg: Config = config()): PartnersClient {
    return new PartnersClient({
      baseUrl: cfg.partners.url,
      username: cfg.partners.username,
      password: cfg.partners.password,
      domain: cfg.partners.domain,
      integrationToken: cfg.partners.integrationToken,
      widgetIntegrationToken: cfg.partners.widgetIntegrationToken,
      domainHeader: cfg.partners.domainHeader,
      tokenTtlSeconds: cfg.partners.tokenTtlSeconds,
      jwtPath: cfg.partners.jwtPath,
      jwtResponseField: cfg.partners.jwtResponseField,
      smsJwtHeader: cfg.partners.smsJwtHeader,
      smsTokenHeader: cfg.partners.smsTokenHeader,
      timeoutMs: cfg.upstream.timeoutMs,
      readRetries: cfg.upstream.readRetries,
      readDeadlineMs: cfg.upstream.readDeadlineMs,
    });
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
      route: ROUTES.login,
      path: ROUTES.login,
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
  private async authorized<T>(call: (bearer: string) => Promise<T>): Promise<T> {
    const token = await this.bearerToken();
    try {
      return await call(token);
    } catch (error) {
      if (!(error instanceof UpstreamUnauthorizedError)) throw error;
      this.dropBearer(token);
      return await call(await this.bearerToken());
    }
  }

  private headers(bearer: string, extra: Record<string, string> = {}): Record<string, string> {
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
  private async smsCall<T>(call: (headers: Record<string, string>) => Promise<T>): Promise<T> {
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

  // -------------------------------------------------------------------------------------------------------
  // Operations

  /** POST /integrations: a new integration key bound to `domain`. The answer holds the key value (`uuid`). */
  async createIntegration(input: { domain: string; label: string }, signal?: AbortSignal): Promise<Integration> {
    const valid = createIntegrationInputSchema.parse(input);
    const { data } = await this.authorized((bearer) =>
      this.request({
        method: "POST",
        operation: "create_integration",
        route: ROUTES.integrations,
        path: ROUTES.integrations,
        form: { domain: valid.domain, label: valid.label },
        headers: this.headers(bearer),
        schema: createIntegrationResponseWire,
        signal,
      }),
    );
    registerRecentSecret(data.integration.uuid);
    return reshapeIntegration(data.integration);
  }

  /** GET /kyc/cpf-history: CPF enrichment (`dados`). */
  async cpfHistory(cpf: string, signal?: AbortSignal): Promise<CpfHistoryRecord> {
    const digits = z.object({ cpf: cpfInput }).parse({ cpf }).cpf;
    const { data } = await this.authorized((bearer) =>
      this.request({
        method: "GET",
        operation: "cpf_history",
        route: ROUTES.cpfHistory,
        path: ROUTES.cpfHistory,
        query: { token: this.integrationToken, cpf: digits },
        headers: this.headers(bearer),
        schema: cpfHistoryResponseWire,
        signal,
      }),
    );
    return reshapeCpfHistory(data.dados);
  }

  /** GET /receita-federal/cpf: the federal revenue record (`Result`). The domain goes in `Origin` here (contract). */
  async federalRevenueCpf(cpf: string, signal?: AbortSignal): Promise<FederalRevenueRecord> {
    const digits = z.object({ cpf: cpfInput }).parse({ cpf }).cpf;
    const { data } = await this.authorized((bearer) =>
      this.request({
        method: "GET",
        operation: "federal_revenue_cpf",
        route: ROUTES.federalRevenue,
        path: ROUTES.federalRevenue,
        query: { token: this.integrationToken, cpf: digits },
        headers: { Authorization: `Bearer ${bearer}`, Origin: this.domain },
        schema: federalRevenueResponseWire,
        signal,
      }),
    );
    return reshapeFederalRevenue(data.Result);
  }

  /**
   * POST /kyc/get-sdk-url: starts a KYC session. The widget address carries the integration token in its
   * query (`token`), so it is as sensitive as the token itself.
   * ASSUMPTION (docs/assumptions.md#kyc-lang): `lang` is sent as a form field (the contract shows it only in the
   * returned address).
   */
  async startKycSession(input: { cpf: string; lang?: string }, signal?: AbortSignal): Promise<KycSession> {
    const valid = kycSessionInputSchema.parse(input);
    const { data } = await this.authorized((bearer) =>
      this.request({
        method: "POST",
        operation: "start_kyc_session",
        route: ROUTES.sdkUrl,
        path: ROUTES.sdkUrl,
        form: { cpf: valid.cpf, token: this.widgetIntegrationToken, lang: valid.lang },
        headers: this.headers(bearer),
        schema: kycSessionResponseWire,
        signal,
      }),
    );
    return reshapeKycSession(data);
  }

  /**
   * POST /sms/send-code: `phone` in the query and `phone`, `message` in the multipart form (the contract:
   * the reference lists `phone` as a query parameter and sends both as form fields). A 200 means the code
   * was delivered. Never retried (a retry would send a second SMS).
   */
  async sendSmsCode(input: { phone: string; message?: string }, signal?: AbortSignal): Promise<SmsSendResult> {
    const valid = sendSmsInputSchema.parse(input);
    await this.smsCall((headers) =>
      this.request({
        method: "POST",
        operation: "send_sms_code",
        route: ROUTES.sendCode,
        path: ROUTES.sendCode,
        query: { phone: valid.phone },
        form: { phone: valid.phone, message: valid.message },
        headers,
        schema: smsResponseWire,
        bodyOptional: true,
        signal,
      }),
    );
    return { sent: true };
  }

  /**
   * POST /sms/validate-code, as the reference shows it: `phone` and `code` in the query, `phone` and `message`
   * in the multipart form. A 200 means valid; a wrong code is an UpstreamValidationError (422).
   */
  async validateSmsCode(input: { phone: string; code: string; message?: string }, signal?: AbortSignal): Promise<SmsValidateResult> {
    const valid = validateSmsInputSchema.parse(input);
    const { data } = await this.smsCall((headers) =>
      this.request({
        method: "POST",
        operation: "validate_sms_code",
        route: ROUTES.validateCode,
        path: ROUTES.validateCode,
        query: { phone: valid.phone, code: valid.code },
        form: { phone: valid.phone, message: valid.message },
        headers,
        schema: smsResponseWire,
        bodyOptional: true,
        signal,
      }),
    );
    const stated = data && typeof data === "object" ? (data as { valid?: unknown }).valid : undefined;
    return { valid: stated !== false };
  }
}

let singleton: PartnersClient | undefined;

/** The process's partners client, built from config(); one token cache per process. */
export function partnersClient(): PartnersClient {
  if (!singleton) {
    const cfg = config();
    registerConfigSecrets(cfg);
    singleton = PartnersClient.fromConfig(cfg);
  }
  return singleton;
}

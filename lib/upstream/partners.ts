import "server-only";

import { z } from "zod";

import { config, type Config } from "@/lib/config";
import { registerRecentSecret } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";
import { accountClient, type UpstreamAccount } from "@/lib/upstream/account";
import type {
  CpfHistoryRecord,
  FederalRevenueRecord,
  Integration,
  KycSession,
  SmsSendResult,
  SmsValidateResult,
} from "@/lib/upstream/model/partners";
import { PartnersSession } from "@/lib/upstream/partners-session";
import {
  cpfHistoryResponseWire,
  cpfInput,
  createIntegrationInputSchema,
  createIntegrationResponseWire,
  federalRevenueResponseWire,
  kycSessionInputSchema,
  kycSessionResponseWire,
  reshapeCpfHistory,
  reshapeFederalRevenue,
  reshapeIntegration,
  reshapeKycSession,
  sendSmsInputSchema,
  smsResponseWire,
  validateSmsInputSchema,
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

const ROUTES = {
  integrations: "/integrations",
  cpfHistory: "/kyc/cpf-history",
  sdkUrl: "/kyc/get-sdk-url",
  sendCode: "/sms/send-code",
  validateCode: "/sms/validate-code",
  federalRevenue: "/receita-federal/cpf",
} as const;

export class PartnersClient extends PartnersSession {
  /** The client of `account`'s partners account (the start-up variables' when none is given). */
  static fromConfig(cfg: Config = config(), account?: UpstreamAccount): PartnersClient {
    if (account && !account.partners) throw new NoPartnersAccountError();
    const partners = account?.partners ?? cfg.partners;
    return new PartnersClient({
      baseUrl: cfg.partners.url,
      username: partners.username,
      password: partners.password,
      domain: partners.domain,
      integrationToken: partners.integrationToken,
      widgetIntegrationToken: partners.widgetIntegrationToken,
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

/**
 * The partners client of the account the work in progress speaks as (lib/upstream/account.ts): one token cache
 * per account and process.
 */
export const partnersClient = accountClient((cfg, account) => PartnersClient.fromConfig(cfg, account));

/** The current connection holds no partners account: lookups, KYC sessions, SMS and integration keys are not open to it. */
export class NoPartnersAccountError extends AppError {
  constructor() {
    super("conflict", "This connection has no partners account: an administrator adds one on the connections page.");
  }
}

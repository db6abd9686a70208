import "server-only";

import { z } from "zod";

import { headerName, positiveInt } from "@/lib/config/fields";

/** The upstream services: paging, headers and tokens the contract leaves open, timeouts and retries. */
export const upstreamVariables = {
  // ASSUMPTION (docs/assumptions.md#core-page-param): name of the query parameter that selects a page of
  // GET /public/validations-persons.
  CORE_PAGE_PARAM: z
    .string()
    .regex(/^[a-z_]+$/)
    .default("page"),
  // ASSUMPTION (docs/assumptions.md#core-max-per-page): the upper page size the list asks for (the contract shows no maximum).
  CORE_MAX_PER_PAGE: positiveInt.max(1000).default(100),
  // ASSUMPTION (docs/assumptions.md#core-date-filter): format of the list's `from`/`to` filters: a calendar date
  // (YYYY-MM-DD) or an ISO 8601 instant.
  CORE_DATE_FILTER_FORMAT: z.enum(["date", "datetime"]).default("date"),
  // ASSUMPTION (docs/assumptions.md#partners-domain-header): header carrying the client's domain on partners calls
  // other than the federal revenue lookup and the SMS calls (those two always send Origin).
  PARTNERS_DOMAIN_HEADER: headerName.default("Origin"),
  // ASSUMPTION (docs/assumptions.md#login): unit of the login `expiration` field is seconds; the dashboard asks
  // for this lifetime.
  PARTNERS_TOKEN_TTL_SECONDS: positiveInt.max(86_400).default(3600),
  // ASSUMPTION (docs/assumptions.md#sms-jwt-request): the /external/generate_jwt request (path, relative to
  // PARTNERS_URL) and the JSON field holding the JWT in its answer.
  PARTNERS_JWT_PATH: z.string().startsWith("/").default("/external/generate_jwt"),
  PARTNERS_JWT_RESPONSE_FIELD: z.string().min(1).default("token"),
  // Header names of the SMS operations (docs/assumptions.md#sms-headers): the JWT (sent as "Bearer <jwt>") and
  // the integration token; the defaults are what the provider's API reference shows (sms/validate-code).
  PARTNERS_SMS_JWT_HEADER: headerName.default("Authorization"),
  PARTNERS_SMS_TOKEN_HEADER: headerName.default("x-api-key"),
  // The connection the variables above seed (`primary`, lib/connections): its name and the environment its key
  // belongs to, as the header shows them. Only the first start reads them; the connections page changes them after.
  CORE_CONNECTION_NAME: z.string().trim().min(1).max(80).default("Production"),
  CORE_ENVIRONMENT: z.enum(["sandbox", "production"]).default("production"),
  UPSTREAM_TIMEOUT_MS: positiveInt.max(120_000).default(10_000),
  UPSTREAM_READ_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  // One total deadline per upstream read, across its retries: every answer comes within it (+ ~1 s).
  UPSTREAM_READ_DEADLINE_MS: positiveInt.max(120_000).default(10_000),
};

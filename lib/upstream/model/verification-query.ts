import type { FieldRead, FieldReader } from "@/lib/shared/read-fields";

import { VERIFICATION_FLOWS, VERIFICATION_STATUSES, type VerificationStatus } from "./verification";

/*
 * The core API's list query as the dashboard speaks it, and the public-id rule: shared by the list page
 * (URL state), GET /api/verifications, the audit details and the core client, which sends each filter under
 * its wire name. Browser-safe: no server import, no zod.
 */

/** The order the filter form offers statuses and sorts them in a URL; the set itself is the domain's. */
export const KNOWN_STATUSES = [
  "approved",
  "review",
  "reproved",
  "started",
  "not_opened",
] as const satisfies readonly (typeof VERIFICATION_STATUSES)[number][];
export const KNOWN_FLOWS = VERIFICATION_FLOWS;

const accept = <T>(value: T): FieldRead<T> => ({ ok: true, value });
const refuse = (message: string): FieldRead<never> => ({ ok: false, message });

// Statuses are a closed set (refused here, before any call); flows and journeys are not shown in full:
// any plain token is accepted and the known ones offered.
const TOKEN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function readToken(value: unknown): FieldRead<string> {
  if (typeof value !== "string") return refuse("must be given once, as text");
  return TOKEN.test(value) ? accept(value) : refuse("must be a lowercase word (letters, digits, - or _)");
}

/** A calendar date as YYYY-MM-DD that exists (no 30 February). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

function readDate(value: unknown): FieldRead<string> {
  if (typeof value !== "string") return refuse("must be given once, as text");
  if (!ISO_DATE.test(value)) return refuse("must be a date as YYYY-MM-DD");
  return isIsoDate(value) ? accept(value) : refuse("is not a real date");
}

function readStatuses(value: unknown): FieldRead<VerificationStatus[]> {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 10) return refuse("must name at most 10 statuses");
  const known = VERIFICATION_STATUSES as readonly unknown[];
  return list.every((item) => known.includes(item))
    ? accept(list as VerificationStatus[])
    : refuse(`must be one of ${VERIFICATION_STATUSES.join(", ")}`);
}

/** A whole number written in decimal digits only: `0x10`, `1e3`, `+5` or ` 7` are refused, not coerced. */
function readCount(min: number, max: number) {
  return (value: unknown): FieldRead<number> => {
    if (typeof value === "number" ? !Number.isInteger(value) : typeof value !== "string" || !/^\d{1,9}$/.test(value))
      return refuse("must be a whole number in decimal digits");
    const count = Number(value);
    return count >= min && count <= max ? accept(count) : refuse(`must be from ${min} to ${max}`);
  };
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;

/**
 * The list filters, defined once: each key is the dashboard's name (URL, GET /api/verifications, the audit
 * details), `wire` is the core API's query parameter, and `kind` says how the value is read, written in a
 * URL or a query, sent upstream (lib/upstream/core.ts checks each kind) and kept on the audit trail
 * (lib/verifications/server/audit-details.ts). `read` checks one value: the same function in the browser (the
 * list's URL state) and on the server (GET /api/verifications), without zod, so no validation library
 * ships to the browser. The route, the core client, the URL and the audit details all derive from this
 * table, so a new filter is a line here, a control in the form and its messages.
 */
export const VERIFICATION_FILTERS = {
  status: { kind: "statuses", wire: "status", read: readStatuses },
  flow: { kind: "token", wire: "flow", read: readToken },
  journey: { kind: "token", wire: "journey", read: readToken },
  // `bound`: which end of the display-time-zone day the date stands for upstream (lib/verifications/dates.ts).
  from: { kind: "date", wire: "from", read: readDate, bound: "from" },
  to: { kind: "date", wire: "to", read: readDate, bound: "to" },
  // `capped`: the core client also holds it to its configured maximum page size (CORE_MAX_PER_PAGE).
  per_page: { kind: "count", wire: "per_page", read: readCount(1, 100), capped: true },
  // The wire name is the default of CORE_PAGE_PARAM; the core client sends the configured one.
  page: { kind: "count", wire: "page", read: readCount(1, 100_000) },
} as const satisfies Record<string, FilterDefinition>;

export interface FilterDefinition {
  kind: FilterKind;
  wire: string;
  read: (value: unknown) => FieldRead<unknown>;
  bound?: "from" | "to";
  capped?: boolean;
}

/** statuses: a list, comma-joined in URLs and queries; token: a free word; date: YYYY-MM-DD; count: a whole number. */
export type FilterKind = "statuses" | "token" | "date" | "count";
export type FilterKey = keyof typeof VERIFICATION_FILTERS;
export const FILTER_KEYS = Object.keys(VERIFICATION_FILTERS) as FilterKey[];
export const FILTER_READERS: Record<string, FieldReader> = Object.fromEntries(
  FILTER_KEYS.map((key) => [key, VERIFICATION_FILTERS[key].read]),
);

/** A filter set as read: every key optional, values already checked. */
export type VerificationFilters = {
  [K in FilterKey]?: Extract<ReturnType<(typeof VERIFICATION_FILTERS)[K]["read"]>, { ok: true }>["value"];
};

/** A filter value as a URL or query parameter: lists comma-joined, everything else as text. */
export function filterParam(value: string | number | readonly string[]): string {
  return typeof value === "object" ? value.join(",") : String(value);
}

/**
 * Reads filters from a query string. `status` may come comma-separated or repeated; empty values count
 * as absent. Unknown parameters stay in the object so the strict schema names them.
 */
export function filtersFromSearchParams(params: URLSearchParams): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key).filter((value) => value !== "");
    if (values.length === 0) continue;
    const kind = (VERIFICATION_FILTERS as Record<string, FilterDefinition>)[key]?.kind;
    raw[key] = kind === "statuses" ? values.flatMap((value) => value.split(",")).filter(Boolean) : values.length === 1 ? values[0] : values;
  }
  return raw;
}

/** The inverse, for links and the URL bar: stable order, status comma-separated. */
export function filtersToSearchParams(filters: VerificationFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value !== undefined && filterParam(value) !== "") params.set(key, filterParam(value));
  }
  return params;
}

/**
 * ASSUMPTION (docs/assumptions.md#public-id-format): the contract only says `public_id` is a string. Ids seen
 * are UUIDs; this accepts those and any other token of letters, digits, `_` and `-`, and refuses anything that
 * could change an upstream path (`/`, `.`, `%`, `?`, `#`) before any call. The one definition: pages, routes and
 * the core client use it.
 */
export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export function isPublicId(value: unknown): value is string {
  return typeof value === "string" && PUBLIC_ID_PATTERN.test(value);
}

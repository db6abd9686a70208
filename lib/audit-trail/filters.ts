import { readFields, type FieldProblem, type FieldRead, type FieldReader } from "@/lib/shared/read-fields";

import { AUDIT_OUTCOMES } from "./outcomes";

/*
 * Filters of the audit log, shared by the page (URL state, form), GET /api/audit and the CSV export.
 * No server imports and no zod: the page's client component uses the same parser and the same URL mapping.
 *
 * A CPF never travels in a URL (it would land in access logs and browser history): the search CPF goes
 * in the `X-Search-Cpf` request header, and a `cpf` query parameter is refused by name.
 */

export const AUDIT_OUTCOME_VALUES = AUDIT_OUTCOMES;
export const CPF_SEARCH_HEADER = "x-search-cpf";
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

// A calendar date, a wall-clock time (minutes or seconds) in the display time zone, or an ISO instant
// with an offset. The page sends what its <input type="datetime-local"> holds.
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const WALL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
export const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

const UNMASKED_CPF = /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/;

/** A rule on a trimmed text value: undefined when it passes, else the message naming what is wrong. */
type Rule = (value: string) => string | undefined;

const text =
  (...rules: Rule[]) =>
  (raw: unknown): FieldRead<string> => {
    if (typeof raw !== "string") return { ok: false, message: "must be given once, as text" };
    const value = raw.trim();
    for (const rule of rules) {
      const message = rule(value);
      if (message) return { ok: false, message };
    }
    return { ok: true, value };
  };

const matches =
  (pattern: RegExp, message: string): Rule =>
  (value) =>
    pattern.test(value) ? undefined : message;
const length =
  (min: number, max: number): Rule =>
  (value) =>
    value.length < min ? "is required" : value.length > max ? `must be at most ${max} characters` : undefined;
const oneOf =
  (values: readonly string[]): Rule =>
  (value) =>
    values.includes(value) ? undefined : `must be one of ${values.join(", ")}`;

const timeValue = text(
  (value) =>
    DATE_ONLY.test(value) || WALL_TIME.test(value) || INSTANT.test(value)
      ? undefined
      : "must be a date (YYYY-MM-DD), a local time (YYYY-MM-DDTHH:mm) or an ISO 8601 instant",
  (value) => (isRealTime(value) ? undefined : "is not a real date or time"),
);

/**
 * Each filter's rule, defined once without zod: the page (server and client) and GET /api/audit read the
 * URL with the same functions, and the browser ships no validation library.
 */
const FILTER_RULES = {
  /** An actor's email, exact and case-insensitive. */
  actor: text(length(0, 254), matches(/^[^\s@]+@[^\s@]+$/, "must be a staff member's email address")),
  // Action names are dotted lowercase words written by the application (e.g. `lookup.cpf`).
  action: text(matches(/^[a-z0-9_.:-]{1,64}$/, "must be an action name such as lookup.cpf")),
  target_type: text(matches(/^[a-z][a-z_]{0,63}$/, "must be a target type such as verification")),
  /** The target as stored (a verification id, a key label, a masked CPF): exact match. */
  target: text(length(1, 200), (value) =>
    // A full CPF here would be written to the trail by the audit of this very search: refuse it.
    UNMASKED_CPF.test(value) ? "looks like a full CPF: use the CPF search, which finds it without storing it" : undefined,
  ),
  outcome: text(oneOf(AUDIT_OUTCOME_VALUES)),
  /** The connection events were recorded under (its id). Not `connection`: that parameter is every route's own. */
  in_connection: text(matches(/^[a-z0-9][a-z0-9-]{0,39}$/, "must be a connection's id, such as production")),
  from: timeValue,
  to: timeValue,
} satisfies Record<string, FieldReader<string>>;

const LIST_RULES = {
  ...FILTER_RULES,
  cursor: text(matches(/^[A-Za-z0-9_-]{1,200}$/, "is not a cursor this server issued")),
  limit: text(matches(/^\d{1,9}$/, "must be a whole number"), (value) =>
    Number(value) >= 1 && Number(value) <= MAX_PAGE_SIZE ? undefined : `must be from 1 to ${MAX_PAGE_SIZE}`,
  ),
  format: text(oneOf(["json", "csv"])),
  // Refused by name: see the header comment.
  cpf: () => ({ ok: false, message: `must not be sent in a URL: send it in the ${CPF_SEARCH_HEADER} header` }),
} satisfies Record<string, FieldReader<string>>;

export interface AuditFilters {
  actor?: string;
  action?: string;
  target_type?: string;
  target?: string;
  outcome?: (typeof AUDIT_OUTCOME_VALUES)[number];
  in_connection?: string;
  from?: string;
  to?: string;
}

/** The list request: filters, an opaque cursor from the previous page, a page size. */
export interface AuditListQuery extends AuditFilters {
  cursor?: string;
  limit?: number;
  format?: "json" | "csv";
}

/** `not_accepted`: a parameter this view does not take (the page says so in its own words). */
export type AuditFilterProblem = FieldProblem;

export type AuditParse<T> = { ok: true; value: T } | { ok: false; problems: AuditFilterProblem[] };

function readAll(raw: Record<string, unknown>, rules: Record<string, FieldReader<string>>): AuditParse<Record<string, string>> {
  const { values, problems } = readFields(raw, rules);
  return problems.length ? { ok: false, problems } : { ok: true, value: values };
}

/** The filters of a page URL (strict: an unknown parameter is a problem naming it). */
export function parseAuditFilters(raw: Record<string, unknown>): AuditParse<AuditFilters> {
  return readAll(raw, FILTER_RULES) as AuditParse<AuditFilters>;
}

/** GET /api/audit's query: the filters, `cursor`, `limit`, `format`; `cpf` refused, naming the header. */
export function parseAuditListQuery(raw: Record<string, unknown>): AuditParse<AuditListQuery> {
  const read = readAll(raw, LIST_RULES);
  if (!read.ok) return read;
  const { limit, ...rest } = read.value;
  return { ok: true, value: { ...rest, ...(limit ? { limit: Number(limit) } : {}) } as AuditListQuery };
}

/** Query string → raw object for the strict parsers; empty values count as absent, unknown keys stay to be named. */
export function auditParamsFromSearchParams(params: URLSearchParams): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key).filter((value) => value.trim() !== "");
    if (values.length === 0) continue;
    raw[key] = values.length === 1 ? values[0] : values;
  }
  return raw;
}

const FILTER_KEYS = ["actor", "action", "target_type", "target", "outcome", "in_connection", "from", "to"] as const;

/** Filters → query string, in a stable order (query keys and links). */
export function auditFiltersToSearchParams(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value !== undefined && value !== "") params.set(key, value);
  }
  return params;
}

/** Drops empty strings (form fields left blank) so that `{}` and `{action: ""}` are the same filter. */
export function compactFilters(filters: Partial<Record<keyof AuditFilters, string | undefined>>): AuditFilters {
  const out: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = filters[key]?.trim();
    if (value) out[key] = value;
  }
  return out as AuditFilters;
}

function isRealTime(value: string): boolean {
  const datePart = value.slice(0, 10);
  const probe = new Date(`${datePart}T00:00:00Z`);
  if (Number.isNaN(probe.getTime()) || !probe.toISOString().startsWith(datePart)) return false;
  const time = /T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  if (!time) return true;
  return Number(time[1]) < 24 && Number(time[2]) < 60 && Number(time[3] ?? 0) < 60;
}

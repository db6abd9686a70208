import { z } from "zod";

import { wallTimeToInstant } from "@/lib/time-zone";

import { AUDIT_OUTCOMES } from "./outcomes";

/*
 * Filters of the audit log, shared by the page (URL state, form), GET /api/audit and the CSV export.
 * No server imports: the page's client component uses the same schema and the same URL mapping.
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
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const WALL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

const timeValue = z
  .string()
  .trim()
  .refine((value) => DATE_ONLY.test(value) || WALL_TIME.test(value) || INSTANT.test(value), {
    message: "must be a date (YYYY-MM-DD), a local time (YYYY-MM-DDTHH:mm) or an ISO 8601 instant",
    abort: true,
  })
  .refine((value) => isRealTime(value), "is not a real date or time");

const UNMASKED_CPF = /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/;

// Action names are dotted lowercase words written by the application (e.g. `lookup.cpf`).
const actionName = z
  .string()
  .trim()
  .regex(/^[a-z0-9_.:-]{1,64}$/, "must be an action name such as lookup.cpf");

export const auditFiltersSchema = z
  .object({
    /** An actor's email, exact and case-insensitive. */
    actor: z
      .string()
      .trim()
      .max(254)
      .regex(/^[^\s@]+@[^\s@]+$/, "must be a staff member's email address")
      .optional(),
    action: actionName.optional(),
    target_type: z
      .string()
      .trim()
      .regex(/^[a-z][a-z_]{0,63}$/, "must be a target type such as verification")
      .optional(),
    /** The target as stored (a verification id, a key label, a masked CPF): exact match. */
    target: z
      .string()
      .trim()
      .min(1)
      .max(200)
      // A full CPF here would be written to the trail by the audit of this very search: refuse it.
      .refine((value) => !UNMASKED_CPF.test(value), "looks like a full CPF: use the CPF search, which finds it without storing it")
      .optional(),
    outcome: z.enum(AUDIT_OUTCOME_VALUES).optional(),
    from: timeValue.optional(),
    to: timeValue.optional(),
  })
  .strict();

export type AuditFilters = z.infer<typeof auditFiltersSchema>;

/** The list request: filters, an opaque cursor from the previous page, a page size. */
export const auditListQuerySchema = auditFiltersSchema
  .extend({
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,200}$/, "is not a cursor this server issued")
      .optional(),
    limit: z.coerce.number().int("must be a whole number").min(1).max(MAX_PAGE_SIZE).optional(),
    format: z.enum(["json", "csv"]).optional(),
    // Refused by name: see the header comment.
    cpf: z.never({ error: `must not be sent in a URL: send it in the ${CPF_SEARCH_HEADER} header` }).optional(),
  })
  .strict();

export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

/** Query string → raw object for the strict schema; empty values count as absent, unknown keys stay to be named. */
export function auditParamsFromSearchParams(params: URLSearchParams): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key).filter((value) => value.trim() !== "");
    if (values.length === 0) continue;
    raw[key] = values.length === 1 ? values[0] : values;
  }
  return raw;
}

const FILTER_KEYS = ["actor", "action", "target_type", "target", "outcome", "from", "to"] as const;

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

/** The time range as instants: `from` inclusive, `to` exclusive (a date or minute `to` covers all of it). */
export function timeRange(filters: Pick<AuditFilters, "from" | "to">, timeZone: string): { from?: Date; toExclusive?: Date } {
  const out: { from?: Date; toExclusive?: Date } = {};
  if (filters.from) out.from = toInstant(filters.from, timeZone, "start");
  if (filters.to) out.toExclusive = toInstant(filters.to, timeZone, "end");
  return out;
}

function toInstant(value: string, timeZone: string, edge: "start" | "end"): Date {
  if (INSTANT.test(value)) {
    const instant = new Date(value);
    // An instant `to` includes that very instant (to the millisecond the database keeps... and beyond).
    return edge === "end" ? new Date(instant.getTime() + 1) : instant;
  }
  if (DATE_ONLY.test(value)) {
    const start = wallTimeToInstant(`${value}T00:00:00`, timeZone);
    if (edge === "start") return start;
    const next = new Date(`${value}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    return wallTimeToInstant(`${next.toISOString().slice(0, 10)}T00:00:00`, timeZone);
  }
  const withSeconds = value.length === 16 ? `${value}:00` : value;
  const start = wallTimeToInstant(withSeconds, timeZone);
  if (edge === "start") return start;
  // A minute (`…T10:30`) covers the whole minute; a second, the whole second.
  return new Date(start.getTime() + (value.length === 16 ? 60_000 : 1000));
}

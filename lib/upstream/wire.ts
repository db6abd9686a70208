import { z } from "zod";

/*
 * Zod schemas of the identity verification service's resources as they are on the wire, and the reshape
 * functions to the domain types (lib/upstream/model/): core-validation.ts for the core API,
 * partners-validation.ts for the partners API, this file for what both use. Shared: no server imports.
 *
 * Every object is loose (unknown fields pass through) because the contract lists the fields it shows,
 * not every field that exists. Fields the contract states are typed; the ones the pages cannot do
 * without are required, the rest are `nullish` so one absent detail does not turn a whole answer into a
 * "malformed response".
 */

export const str = z.string().nullish();
export const bool = z.boolean().nullish();
export const num = z.number().nullish();
export const int = z.number().int().nullish();

/** The contract writes unknown values as empty strings; the domain uses null. */
export function text(value: string | null | undefined): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Fields of `raw` not in `known`, kept as sent. (A plain loop: every list row runs this for itself and its steps.) */
export function extraFields(raw: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) if (!known.has(key)) extra[key] = raw[key];
  return extra;
}

/** The UTC calendar date of an ISO timestamp (or a plain date), for date-only facts like a birth date. */
export function utcDate(value: string | null | undefined): string | null {
  const raw = text(value);
  if (!raw) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return raw;
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? raw : date.toISOString().slice(0, 10);
}

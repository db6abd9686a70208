import { z } from "zod";

import type { InputProblem } from "@/lib/verifications/rules";
import { problemsOf } from "@/lib/verifications/validation";

/*
 * The overview's period, kept in the URL: `?days=7|30` (the last N days, today included) or
 * `?from=YYYY-MM-DD&to=YYYY-MM-DD` (calendar days in the display time zone, inclusive). At most
 * MAX_PERIOD_DAYS days: where the status mirror cannot serve a period, the per-day chart costs one count call per
 * status and day, so the span bounds what one view can ask of the service. Shared: no server imports (the period form uses the same names).
 */

export const PERIOD_PRESETS = [7, 30] as const;
export const DEFAULT_PERIOD_DAYS = 30;
export const MAX_PERIOD_DAYS = 31;

export interface OverviewPeriod {
  /** First day, YYYY-MM-DD, in the display time zone. */
  from: string;
  /** Last day, inclusive. */
  to: string;
  /** Every day from `from` to `to`, in order. */
  days: string[];
  /** 7 or 30 when the period is a preset, else null. */
  preset: number | null;
}

const DAY_MS = 86_400_000;

/** Today's calendar day in `timeZone`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

export function addDays(day: string, count: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

const periodSchema = z
  .object({
    days: z.enum(PERIOD_PRESETS.map(String) as ["7", "30"], { error: `must be one of ${PERIOD_PRESETS.join(", ")}` }).optional(),
    from: z.iso.date({ error: "must be a date as YYYY-MM-DD" }).optional(),
    to: z.iso.date({ error: "must be a date as YYYY-MM-DD" }).optional(),
  })
  .strict()
  .refine((value) => !(value.days && (value.from || value.to)), { message: "give either days or from/to, not both", path: ["days"] });

export type PeriodParseResult = { ok: true; period: OverviewPeriod } | { ok: false; problems: InputProblem[] };

/** Reads the period from the query string; every problem is named by its parameter. */
export function parseOverviewPeriod(params: URLSearchParams, today: string): PeriodParseResult {
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key).filter((value) => value !== "");
    if (values.length > 0) raw[key] = values.length === 1 ? values[0]! : values;
  }
  const parsed = periodSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: problemsOf(parsed.error) };
  const { days, from, to } = parsed.data;
  if (!from && !to) {
    const count = days ? Number(days) : DEFAULT_PERIOD_DAYS;
    const start = addDays(today, -(count - 1));
    return { ok: true, period: { from: start, to: today, days: daysBetween(start, today), preset: count } };
  }
  const end = to ?? today;
  const start = from ?? addDays(end, -(DEFAULT_PERIOD_DAYS - 1));
  if (start > end) return { ok: false, problems: [{ field: "from", message: "must not be after `to`" }] };
  const span = daysBetween(start, end);
  if (span.length > MAX_PERIOD_DAYS) {
    return { ok: false, problems: [{ field: "from", message: `the period must span at most ${MAX_PERIOD_DAYS} days` }] };
  }
  return { ok: true, period: { from: start, to: end, days: span, preset: null } };
}

import "server-only";

import { config, type QuotaName, type QuotaWindow } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { consumeUpTo, countsAt, giveBack } from "@/lib/db/rate-limit";
import { metrics } from "@/lib/metrics/registry";
import { AppError } from "@/lib/shared/errors";
import { dayWindow } from "@/lib/shared/time-zone";

/*
 * Per-member quotas on what can be harvested (docs/security.md#quotas): one table, one function. Each use is
 * counted in the database (lib/db/rate-limit.ts) with one conditional upsert per window, so every instance
 * sees the same counts and two instances never both take the last unit. A refusal adds nothing, is a 429
 * with Retry-After (QuotaExceededError), and the audited action that called it records it as denied.
 *
 * Minute and hour windows are aligned on the clock; the day is the calendar day of the display time zone, so
 * "try again tomorrow" means what the member thinks it means. Every quota also counts its day (with no limit
 * where none is set), which is what /admin/staff shows as each member's use today.
 */

/** One line per quota: its counter keys, its words, the variables that set each window's limit. */
export const QUOTAS: Record<QuotaName, { keyPrefix: string; what: string; variables: Partial<Record<QuotaWindow, string>> }> = {
  lookup: { keyPrefix: "lookup:cpf", what: "CPF lookups", variables: { minute: "LOOKUP_LIMIT_PER_MINUTE", day: "LOOKUP_LIMIT_PER_DAY" } },
  kyc_start: {
    keyPrefix: "kyc:start",
    what: "KYC sessions started",
    variables: { minute: "KYC_START_LIMIT_PER_MINUTE", day: "KYC_START_LIMIT_PER_DAY" },
  },
  export_rows: { keyPrefix: "export:rows", what: "exported rows", variables: { day: "EXPORT_ROWS_PER_DAY" } },
  media_view: { keyPrefix: "media:view", what: "images opened", variables: { hour: "MEDIA_VIEWS_PER_HOUR" } },
  sms_send: { keyPrefix: "sms:send", what: "SMS codes sent", variables: { hour: "SMS_SENDS_PER_HOUR", day: "SMS_SENDS_PER_DAY" } },
  // Only members without personal_data.unmasked spend it (app/api/search/route.ts).
  cpf_search: {
    keyPrefix: "search:cpf",
    what: "CPF searches",
    variables: { hour: "CPF_SEARCH_LIMIT_PER_HOUR", day: "CPF_SEARCH_LIMIT_PER_DAY" },
  },
};

export const QUOTA_NAMES = Object.keys(QUOTAS) as QuotaName[];

const WINDOWS: QuotaWindow[] = ["minute", "hour", "day"];
const WINDOW_MS: Record<Exclude<QuotaWindow, "day">, number> = { minute: 60_000, hour: 3_600_000 };
/** The day is always counted; without a day limit, the column's ceiling stands for "none". */
const NO_LIMIT = 2_147_483_647;

export interface QuotaOptions {
  /** Units taken at once (the rows of an export); 1 otherwise. */
  amount?: number;
  /** This quota's limits per window; the configuration's otherwise. */
  limits?: Partial<Record<QuotaWindow, number>>;
  timeZone?: string;
  now?: Date;
}

function bounds(window: QuotaWindow, now: Date, timeZone: string): { start: Date; end: Date } {
  if (window === "day") {
    const { start, end } = dayWindow(now, timeZone);
    return { start: new Date(start), end: new Date(end) };
  }
  const size = WINDOW_MS[window];
  const start = Math.floor(now.getTime() / size) * size;
  return { start: new Date(start), end: new Date(start + size) };
}

function quotaKey(name: QuotaName, window: QuotaWindow, userId: string): string {
  return `${QUOTAS[name].keyPrefix}:${window}:${userId}`;
}

/** A member's quota refused: 429 with Retry-After, recorded on the trail as denied (`limit_per_<window>`). */
export class QuotaExceededError extends AppError {
  readonly auditOutcome = "denied";
  readonly auditReason: string;

  constructor(
    readonly quota: QuotaName,
    readonly window: QuotaWindow,
    readonly limit: number,
    retryAfterSeconds: number,
    { amount = 1, used = 0 }: { amount?: number; used?: number } = {},
  ) {
    const what = QUOTAS[quota].what;
    const later = window === "day" ? "Try again tomorrow." : `Try again in ${retryAfterSeconds} s.`;
    super(
      "rate_limited",
      amount > 1
        ? `This takes ${amount} ${what}; ${Math.max(0, limit - used)} of your ${limit} ${what} per ${window} are left. ${later}`
        : `You reached the limit of ${limit} ${what} per ${window}. ${later}`,
      {
        retryAfterSeconds,
        retryable: true,
        headers: { "X-RateLimit-Quota": quota, "X-RateLimit-Scope": window, "X-RateLimit-Limit": String(limit) },
      },
    );
    this.auditReason = `limit_per_${window}`;
  }
}

export interface ConsumedQuota {
  /** Gives the units back (the action was refused further on and nothing was done). */
  giveBack(): Promise<void>;
}

/**
 * Takes `amount` units of the member's quota in every window, shortest first, or throws QuotaExceededError
 * having taken nothing (what an earlier window took is given back).
 */
export async function consumeQuota(db: Database, name: QuotaName, userId: string, options: QuotaOptions = {}): Promise<ConsumedQuota> {
  const { amount = 1, now = new Date() } = options;
  const limits = options.limits ?? config().quotas[name];
  const timeZone = options.timeZone ?? config().displayTimeZone;
  const taken: Array<{ key: string; start: Date }> = [];
  const release = async () => {
    for (const { key, start } of taken) await giveBack(db, key, start, amount);
  };
  for (const window of WINDOWS) {
    const limit = limits[window];
    if (limit === undefined && window !== "day") continue;
    const key = quotaKey(name, window, userId);
    const { start, end } = bounds(window, now, timeZone);
    const result = await consumeUpTo(db, key, { amount, limit: limit ?? NO_LIMIT, start, end });
    if (!result.allowed) {
      await release();
      metrics().quotaRefusals.inc({ kind: name });
      const retryAfterSeconds = Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
      throw new QuotaExceededError(name, window, limit ?? NO_LIMIT, retryAfterSeconds, { amount, used: result.count });
    }
    taken.push({ key, start });
  }
  return { giveBack: release };
}

export type QuotaUsage = Record<QuotaName, number>;

/** Each member's use of every quota today (the display time zone's day): what /admin/staff shows. */
export async function quotaUsageToday(
  db: Database,
  userIds: string[],
  { now = new Date(), timeZone = config().displayTimeZone }: { now?: Date; timeZone?: string } = {},
): Promise<Map<string, QuotaUsage>> {
  const { start } = bounds("day", now, timeZone);
  const keys = userIds.flatMap((id) => QUOTA_NAMES.map((name) => quotaKey(name, "day", id)));
  const counts = await countsAt(db, keys, start);
  return new Map(
    userIds.map((id) => [
      id,
      Object.fromEntries(QUOTA_NAMES.map((name) => [name, counts.get(quotaKey(name, "day", id)) ?? 0])) as QuotaUsage,
    ]),
  );
}

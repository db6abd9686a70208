import "server-only";

import { sql } from "drizzle-orm";

import { ApiError } from "@/lib/api/errors";
import { record, type AuditDetails } from "@/lib/audit";
import type { Database } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";
import type { CpfHistoryRecord, FederalRevenueRecord } from "@/lib/domain/partners";
import { consume } from "@/lib/rate-limit";
import { zoneOffsetMs } from "@/lib/time-zone";
import { isUpstreamError } from "@/lib/upstream/http";
import type { PartnersClient } from "@/lib/upstream/partners";
import type { LookupSource } from "@/lib/validations/lookups";

import { recordFailure } from "./audit";
import type { Actor } from "./integrations";

/*
 * Manual CPF lookups: per-user limits per minute and per day (database counters, so they hold across
 * instances), then the partners call, then the audit event with the purpose and the outcome. The CPF is
 * given to the audit trail raw and stored there masked plus a keyed hash (lib/audit.ts).
 */

export type LookupLimitScope = "minute" | "day";

export class LookupLimitError extends ApiError {
  constructor(
    readonly scope: LookupLimitScope,
    readonly limit: number,
    retryAfterSeconds: number,
  ) {
    super(
      "rate_limited",
      scope === "minute"
        ? `You reached the limit of ${limit} CPF lookups per minute. Try again in ${retryAfterSeconds} s.`
        : `You reached the limit of ${limit} CPF lookups per day. Try again tomorrow.`,
      { retryAfterSeconds, retryable: true },
    );
  }
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** The UTC instant of the start of `now`'s calendar day in `timeZone`, and the next day's start. */
export function dayWindow(now: Date, timeZone: string): { start: number; end: number } {
  const offset = zoneOffsetMs(now, timeZone);
  const local = new Date(now.getTime() + offset);
  const start = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - offset;
  return { start, end: start + DAY_MS };
}

/**
 * Counts one lookup for the user, or throws LookupLimitError. The minute window is checked first, so
 * attempts refused by it do not use up the day's allowance. The day is the calendar day of the display
 * time zone: "try again tomorrow" means what the analyst thinks it means.
 */
export async function consumeLookup(
  db: Database,
  userId: string,
  limits: { perMinute: number; perDay: number },
  timeZone: string,
  now = new Date(),
): Promise<void> {
  const minute = await consume(db, `lookup:cpf:minute:${userId}`, { limit: limits.perMinute, windowMs: MINUTE_MS }, now);
  if (!minute.allowed) throw new LookupLimitError("minute", limits.perMinute, Math.max(1, Math.ceil(minute.retryAfterMs / 1000)));
  const { start, end } = dayWindow(now, timeZone);
  const day = await consumeDay(db, `lookup:cpf:day:${userId}`, limits.perDay, start, end);
  if (!day.allowed) throw new LookupLimitError("day", limits.perDay, Math.max(1, Math.ceil((end - now.getTime()) / 1000)));
}

/**
 * lib/rate-limit.ts aligns windows on the epoch (UTC midnight for a day); the day here starts at local
 * midnight, so its row is written with its own start and end (the end lets the sweeper drop it on time).
 */
async function consumeDay(db: Database, key: string, limit: number, start: number, end: number): Promise<{ allowed: boolean }> {
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: new Date(start), count: 1, expiresAt: new Date(end) })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count });
  return { allowed: (row?.count ?? 1) <= limit };
}

export type LookupResult = { source: "receita"; record: FederalRevenueRecord } | { source: "history"; record: CpfHistoryRecord };

/** Runs one lookup and records it (success or failure) before answering; an unrecorded lookup is refused. */
export async function runCpfLookup(
  client: PartnersClient,
  { actor, ip, cpf, source, purpose }: { actor: Actor; ip: string | null; cpf: string; source: LookupSource; purpose: string },
): Promise<LookupResult> {
  const action = source === "receita" ? "lookup.cpf_receita" : "lookup.cpf_history";
  let result: LookupResult;
  try {
    result =
      source === "receita" ? { source, record: await client.federalRevenueCpf(cpf) } : { source, record: await client.cpfHistory(cpf) };
  } catch (error) {
    await recordFailure({
      actor,
      action,
      target: { type: "cpf", cpf },
      purpose,
      outcome: "failure",
      ip,
      details: { source, reason: isUpstreamError(error) ? error.kind : "error", status: isUpstreamError(error) ? error.status : null },
    });
    throw error;
  }
  const flags: AuditDetails = { deceased: result.record.deceased === true };
  if (result.source === "history") flags.pep = result.record.pep === true;
  await record({ actor, action, target: { type: "cpf", cpf }, purpose, outcome: "success", ip, details: { source, ...flags } });
  return result;
}

/** Records a lookup refused by the per-user limit (the analyst's attempt is part of the trail too). */
export async function recordLimitedLookup(
  { actor, ip, cpf, source, purpose }: { actor: Actor; ip: string | null; cpf: string; source: LookupSource; purpose: string },
  scope: LookupLimitScope,
): Promise<void> {
  await recordFailure({
    actor,
    action: source === "receita" ? "lookup.cpf_receita" : "lookup.cpf_history",
    target: { type: "cpf", cpf },
    purpose,
    outcome: "denied",
    ip,
    details: { source, reason: `limit_per_${scope}` },
  });
}

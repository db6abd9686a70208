import "server-only";

import { audited, type AuditDetails, type AuditedFailure, type RequestContext } from "@/lib/audit-trail/server";
import type { Database } from "@/lib/db/client";
import { consume, consumeInWindow } from "@/lib/db/rate-limit";
import type { LookupSource } from "@/lib/lookups/schemas";
import { AppError } from "@/lib/shared/errors";
import { dayWindow } from "@/lib/shared/time-zone";
import type { CpfHistoryRecord, FederalRevenueRecord } from "@/lib/upstream/model/partners";
import type { PartnersClient } from "@/lib/upstream/partners";

/*
 * Manual CPF lookups: per-user limits per minute and per day (database counters, so they hold across
 * instances), then the partners call, then the audit event with the purpose and the outcome. The CPF is
 * given to the audit trail raw and stored there masked plus a keyed hash (lib/audit-trail/server/record.ts).
 */

export type LookupLimitScope = "minute" | "day";

export interface LookupLimits {
  limits: { perMinute: number; perDay: number };
  timeZone: string;
}

export class LookupLimitError extends AppError implements AuditedFailure {
  readonly auditOutcome = "denied";
  readonly auditReason: string;

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
      { retryAfterSeconds, retryable: true, headers: { "X-RateLimit-Scope": scope, "X-RateLimit-Limit": String(limit) } },
    );
    this.auditReason = `limit_per_${scope}`;
  }
}

const MINUTE_MS = 60_000;

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
  // The day starts at local midnight, not on the epoch: a window with its own bounds.
  const day = await consumeInWindow(db, `lookup:cpf:day:${userId}`, { limit: limits.perDay, start: new Date(start), end: new Date(end) });
  if (!day.allowed) throw new LookupLimitError("day", limits.perDay, Math.max(1, Math.ceil((end - now.getTime()) / 1000)));
}

export type LookupResult = { source: "receita"; record: FederalRevenueRecord } | { source: "history"; record: CpfHistoryRecord };

/**
 * Counts the lookup against the user's limits, runs it and records it (with the purpose) before
 * answering; an unrecorded lookup is refused. A lookup refused by the limit is recorded as denied.
 */
export async function runCpfLookup(
  db: Database,
  client: PartnersClient,
  context: RequestContext,
  { cpf, source, purpose, limits, timeZone }: { cpf: string; source: LookupSource; purpose: string } & LookupLimits,
): Promise<LookupResult> {
  return audited(
    context,
    {
      action: source === "receita" ? "lookup.cpf_receita" : "lookup.cpf_history",
      target: { type: "cpf", cpf },
      purpose,
      details: { source },
      detailsOf: (result) => {
        const flags: AuditDetails = { deceased: result.record.deceased === true };
        if (result.source === "history") flags.pep = result.record.pep === true;
        return flags;
      },
    },
    async () => {
      await consumeLookup(db, context.actor?.id ?? "unknown", limits, timeZone);
      return source === "receita"
        ? { source, record: await client.federalRevenueCpf(cpf) }
        : { source, record: await client.cpfHistory(cpf) };
    },
  );
}

import "server-only";

import { and, count, eq, gte, inArray, lt, sql } from "drizzle-orm";

import type { AnalyticsPeriod } from "@/lib/analytics/period";
import { summarise } from "@/lib/analytics/stats";
import type { AnalyticsFigures, MemberAnalytics, TeamAnalytics } from "@/lib/analytics/types";
import { staffUsers } from "@/lib/auth/server/tables";
import { EFFECTIVE_STATES } from "@/lib/cases/rules";
import { caseEntries, caseReverifications, cases } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import { addDays } from "@/lib/overview/period";
import { startOfDay } from "@/lib/shared/time-zone";

/*
 * The team's numbers (GET /api/analytics/team, the /analytics page): counted from the dashboard's own records
 * of one connection's cases, nothing asked of the service. Decisions and their times from the cases' effective
 * outcome (lib/cases: a confirmed recommendation, or one recorded without needing confirmation; an escalation
 * decides nothing); disagreeing confirmations, escalations and cited reasons from the cases' history (every
 * one in the period, a later-replaced outcome too); re-verifications from their links. Counts, durations and
 * member names only: no case, note or person leaves this module.
 */

interface Tally {
  decided: number;
  approved: number;
  reproved: number;
  toRecommendation: number[];
  toConfirmation: number[];
  slaMet: number;
  disagreeingConfirmations: number;
  escalations: number;
  reverifications: number;
  finalKnown: number;
  contradicted: number;
  reasons: Record<string, number>;
}

const emptyTally = (): Tally => ({
  decided: 0,
  approved: 0,
  reproved: 0,
  toRecommendation: [],
  toConfirmation: [],
  slaMet: 0,
  disagreeingConfirmations: 0,
  escalations: 0,
  reverifications: 0,
  finalKnown: 0,
  contradicted: 0,
  reasons: {},
});

const seconds = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 1000;

function figuresOf(tally: Tally): AnalyticsFigures {
  const { toRecommendation, toConfirmation, ...counts } = tally;
  return { ...counts, toRecommendation: summarise(toRecommendation), toConfirmation: summarise(toConfirmation) };
}

/** The connection's cases with an effective approve or reprove that took effect in [start, end). */
function decidedCases(db: Database, connectionId: string, start: Date, end: Date) {
  const decidedAt = sql`case when ${cases.outcomeState} = 'confirmed' then ${cases.confirmedAt} else ${cases.outcomeAt} end`;
  return db
    .select({
      author: cases.outcomeBy,
      recommendation: cases.recommendation,
      outcomeState: cases.outcomeState,
      openedAt: cases.openedAt,
      outcomeAt: cases.outcomeAt,
      confirmedAt: cases.confirmedAt,
      dueAt: cases.dueAt,
      finalStatus: cases.finalStatus,
      disagreement: cases.disagreement,
    })
    .from(cases)
    .where(
      and(
        eq(cases.connectionId, connectionId),
        inArray(cases.outcomeState, [...EFFECTIVE_STATES]),
        inArray(cases.recommendation, ["approve", "reprove"]),
        sql`${decidedAt} >= ${start.toISOString()}::timestamptz and ${decidedAt} < ${end.toISOString()}::timestamptz`,
      ),
    );
}

/** Outcomes, confirmations and escalations written in [start, end) on the connection's cases; a confirmation with its outcome's author. */
function historyEntries(db: Database, connectionId: string, start: Date, end: Date) {
  // The outcome a confirmation answers: the case's last outcome before it.
  const outcomeAuthor = sql<string | null>`(select o.actor_id from case_entries o where o.case_id = ${caseEntries.caseId}
    and o.kind = 'outcome' and o.id < ${caseEntries.id} order by o.id desc limit 1)`;
  return db
    .select({ kind: caseEntries.kind, actorId: caseEntries.actorId, details: caseEntries.details, outcomeAuthor })
    .from(caseEntries)
    .innerJoin(cases, eq(cases.id, caseEntries.caseId))
    .where(
      and(
        eq(cases.connectionId, connectionId),
        inArray(caseEntries.kind, ["outcome", "confirmation", "escalated"]),
        gte(caseEntries.at, start),
        lt(caseEntries.at, end),
      ),
    );
}

function reverificationsByMember(db: Database, connectionId: string, start: Date, end: Date) {
  return db
    .select({ memberId: caseReverifications.requestedBy, count: count() })
    .from(caseReverifications)
    .innerJoin(cases, eq(cases.id, caseReverifications.caseId))
    .where(and(eq(cases.connectionId, connectionId), gte(caseReverifications.requestedAt, start), lt(caseReverifications.requestedAt, end)))
    .groupBy(caseReverifications.requestedBy);
}

/** The team's and each member's numbers for one connection and period (days in `timeZone`). */
export async function teamAnalytics(
  db: Database,
  { connectionId, period, timeZone }: { connectionId: string; period: AnalyticsPeriod; timeZone: string },
): Promise<TeamAnalytics> {
  const start = startOfDay(period.from, timeZone);
  const end = startOfDay(addDays(period.to, 1), timeZone);
  const [decided, history, reverifications] = await Promise.all([
    decidedCases(db, connectionId, start, end),
    historyEntries(db, connectionId, start, end),
    reverificationsByMember(db, connectionId, start, end),
  ]);

  const team = emptyTally();
  const byMember = new Map<string, Tally>();
  // Each count lands on the team and, when a member is named, on theirs.
  const tallies = (memberId: string | null) => {
    if (!memberId) return [team];
    if (!byMember.has(memberId)) byMember.set(memberId, emptyTally());
    return [team, byMember.get(memberId)!];
  };
  let automaticEscalations = 0;

  for (const row of decided) {
    const decidedAt = row.outcomeState === "confirmed" ? row.confirmedAt! : row.outcomeAt!;
    for (const tally of tallies(row.author)) {
      tally.decided += 1;
      if (row.recommendation === "approve") tally.approved += 1;
      else tally.reproved += 1;
      tally.toRecommendation.push(seconds(row.openedAt, row.outcomeAt!));
      if (row.outcomeState === "confirmed") tally.toConfirmation.push(seconds(row.openedAt, row.confirmedAt!));
      if (decidedAt.getTime() <= row.dueAt.getTime()) tally.slaMet += 1;
      if (row.finalStatus !== null) tally.finalKnown += 1;
      if (row.finalStatus !== null && row.disagreement) tally.contradicted += 1;
    }
  }
  for (const entry of history) {
    if (entry.kind === "outcome") {
      const reasons = Array.isArray(entry.details.reasons) ? (entry.details.reasons as unknown[]) : [];
      for (const tally of tallies(entry.actorId))
        for (const reason of reasons) if (typeof reason === "string") tally.reasons[reason] = (tally.reasons[reason] ?? 0) + 1;
    } else if (entry.kind === "confirmation") {
      if (entry.details.agree === false) for (const tally of tallies(entry.outcomeAuthor)) tally.disagreeingConfirmations += 1;
    } else {
      if (!entry.actorId) automaticEscalations += 1;
      for (const tally of tallies(entry.actorId)) tally.escalations += 1;
    }
  }
  for (const row of reverifications) for (const tally of tallies(row.memberId)) tally.reverifications += Number(row.count);

  const ids = [...byMember.keys()];
  const names = ids.length
    ? await db
        .select({ id: staffUsers.id, name: staffUsers.name, email: staffUsers.email })
        .from(staffUsers)
        .where(inArray(staffUsers.id, ids))
    : [];
  const nameOf = new Map(names.map((member) => [member.id, member.name.trim() || member.email]));
  const members: MemberAnalytics[] = ids
    .map((memberId) => ({ memberId, name: nameOf.get(memberId) ?? memberId, ...figuresOf(byMember.get(memberId)!) }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.memberId.localeCompare(b.memberId));
  return { period, timeZone, team: { ...figuresOf(team), automaticEscalations }, members };
}

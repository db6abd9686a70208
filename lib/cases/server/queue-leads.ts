import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import { caseQueueMembers } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import { membersHolding } from "@/lib/notifications/server/notify";

/**
 * Who is told of a queue's cases (an overdue digest, an escalation): the queue's leads who can read cases, or, for
 * a queue without one, the members who assign cases. `readers` is the set of members who read cases, when the
 * caller has it already.
 */
export async function queueLeads(
  db: Database,
  queueIds: readonly string[],
  readers?: ReadonlySet<string>,
): Promise<(queueId: string) => string[]> {
  const reading = readers ?? new Set((await membersHolding(db, "cases.read")).map((member) => member.id));
  const assigners = (await membersHolding(db, "cases.assign")).map((member) => member.id);
  const ids = [...new Set(queueIds)];
  const leads = ids.length
    ? await db
        .select({ queueId: caseQueueMembers.queueId, userId: caseQueueMembers.userId })
        .from(caseQueueMembers)
        .where(and(inArray(caseQueueMembers.queueId, ids), eq(caseQueueMembers.lead, true)))
    : [];
  const leadsOf = new Map<string, string[]>();
  for (const lead of leads.filter((row) => reading.has(row.userId))) {
    leadsOf.set(lead.queueId, [...(leadsOf.get(lead.queueId) ?? []), lead.userId]);
  }
  return (queueId) => leadsOf.get(queueId) ?? assigners;
}

import "server-only";

import { and, desc, eq, gte, sql } from "drizzle-orm";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { CpfSearchMisses } from "@/lib/audit-trail/types";
import type { Database } from "@/lib/db/client";

/*
 * Repeated CPF searches that find nothing: how a member would unmask a CPF by trying the 1,000 candidates its mask
 * leaves (docs/security.md#quotas). Each search is already on the trail (`search.verification`, `by: cpf`, the
 * hit count; refused ones as denied), so the pattern is read from there: members with at least `alert` misses in
 * the last `windowHours`, most first. Served by the (action, at) index; the audit page shows it to admins.
 */

const LIMIT = 20;

export async function cpfSearchMisses(
  db: Database,
  { windowHours, alert, now = new Date() }: { windowHours: number; alert: number; now?: Date },
): Promise<CpfSearchMisses[]> {
  const since = new Date(now.getTime() - windowHours * 3_600_000);
  const miss = sql`(${auditEvents.outcome} = 'success' and ${auditEvents.details}->>'count' = '0')`;
  const misses = sql<number>`count(*) filter (where ${miss})`.mapWith(Number);
  const refused = sql<number>`count(*) filter (where ${auditEvents.outcome} = 'denied')`.mapWith(Number);
  const rows = await db
    .select({
      actorId: auditEvents.actorId,
      actorEmail: sql<string | null>`max(${auditEvents.actorEmail})`,
      misses,
      refused,
      lastAt: sql<Date>`max(${auditEvents.at})`.mapWith((value: string | Date) => new Date(value)),
    })
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "search.verification"), gte(auditEvents.at, since), sql`${auditEvents.details}->>'by' = 'cpf'`))
    .groupBy(auditEvents.actorId)
    .having(sql`count(*) filter (where ${miss}) >= ${alert}`)
    .orderBy(desc(misses))
    .limit(LIMIT);
  return rows.map((row) => ({ ...row, lastAt: row.lastAt.toISOString() }));
}

import "server-only";

import { and, asc, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { staffUsers } from "@/lib/auth/server/tables";
import type { RoutingRule } from "@/lib/cases/routing-rules";
import type { RoutingConfigInput } from "@/lib/cases/routing-validation";
import {
  caseEntries,
  caseQueueMembers,
  caseQueues,
  caseRoutingRules,
  caseRoutingSettings,
  cases,
  DEFAULT_QUEUE_ID,
} from "@/lib/cases/server/tables";
import { DEFAULT_TAKE_MODE, type TakeMode } from "@/lib/cases/take-mode";
import type { RoutingConfig } from "@/lib/cases/types";
import { queryRows, type Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

import type { CaseContext } from "./context";

/*
 * The team's routing configuration: queues with members (leads are told of escalations), rules in order, and
 * the auto-assignment settings (one row, id 1). Read whole and replaced whole, in one transaction under the
 * settings row's lock, so two admins saving at once apply one after the other, never a mix. A queue left out
 * is retired, never deleted (cases and the trail keep its id); its open cases go to the default queue, which
 * cannot be retired.
 */

/** The settings row, made when missing (the migration makes it; a fresh PGlite test database too). */
export async function routingSettings(db: Database, lock = false): Promise<{ autoAssign: boolean; capacity: number; takeMode: TakeMode }> {
  await db.insert(caseRoutingSettings).values({ id: 1 }).onConflictDoNothing();
  const query = db
    .select({ autoAssign: caseRoutingSettings.autoAssign, capacity: caseRoutingSettings.capacity, takeMode: caseRoutingSettings.takeMode })
    .from(caseRoutingSettings)
    .where(eq(caseRoutingSettings.id, 1));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? { autoAssign: false, capacity: 10, takeMode: DEFAULT_TAKE_MODE };
}

/** The rules in order, each naming a live queue (a rule of a retired queue is gone with the PUT that retired it). */
export async function loadRules(db: Database): Promise<RoutingRule[]> {
  const rows = await db
    .select({ queueId: caseRoutingRules.queueId, conditions: caseRoutingRules.conditions })
    .from(caseRoutingRules)
    .innerJoin(caseQueues, and(eq(caseQueues.id, caseRoutingRules.queueId), isNull(caseQueues.retiredAt)))
    .orderBy(asc(caseRoutingRules.position));
  return rows;
}

/** Live queues, by name: the queue page's selector. */
export async function listQueues(db: Database): Promise<Array<{ id: string; name: string }>> {
  return db
    .select({ id: caseQueues.id, name: caseQueues.name })
    .from(caseQueues)
    .where(isNull(caseQueues.retiredAt))
    .orderBy(sql`${caseQueues.id} <> ${DEFAULT_QUEUE_ID}`, asc(caseQueues.name));
}

export async function readRouting(db: Database): Promise<RoutingConfig> {
  const { autoAssign, capacity } = await routingSettings(db);
  const [queues, members, rules, staff] = await Promise.all([
    listQueues(db),
    db
      .select({ queueId: caseQueueMembers.queueId, userId: caseQueueMembers.userId, lead: caseQueueMembers.lead })
      .from(caseQueueMembers)
      .orderBy(asc(caseQueueMembers.userId)),
    db
      .select({ id: caseRoutingRules.id, queueId: caseRoutingRules.queueId, conditions: caseRoutingRules.conditions })
      .from(caseRoutingRules)
      .orderBy(asc(caseRoutingRules.position)),
    db
      .select({ id: staffUsers.id, email: staffUsers.email, name: staffUsers.name, away: staffUsers.away, disabled: staffUsers.disabled })
      .from(staffUsers)
      .orderBy(asc(staffUsers.email)),
  ]);
  const live = new Set(queues.map((queue) => queue.id));
  return {
    autoAssign,
    capacity,
    queues: queues.map((queue) => ({
      ...queue,
      members: members.filter((member) => member.queueId === queue.id).map(({ userId, lead }) => ({ userId, lead })),
    })),
    rules: rules.filter((rule) => live.has(rule.queueId)),
    staff,
  };
}

function invalid(field: string, message: string): AppError {
  return new AppError("validation", `Invalid input: ${field}: ${message}`, { fields: [field] });
}

/** Replaces the whole configuration at once; 400 naming the field for what the schema alone cannot know. */
export async function replaceRouting(
  db: Database,
  context: CaseContext,
  input: RoutingConfigInput,
  now = new Date(),
): Promise<RoutingConfig> {
  if (!input.queues.some((queue) => queue.id === DEFAULT_QUEUE_ID)) throw invalid("queues", "must keep the default queue");
  const userIds = [...new Set(input.queues.flatMap((queue) => queue.members.map((member) => member.userId)))];
  const known = userIds.length
    ? new Set((await db.select({ id: staffUsers.id }).from(staffUsers).where(inArray(staffUsers.id, userIds))).map((row) => row.id))
    : new Set<string>();
  input.queues.forEach((queue, index) =>
    queue.members.forEach((member, at) => {
      if (!known.has(member.userId)) throw invalid(`queues.${index}.members.${at}.userId`, "no staff member has this id");
    }),
  );
  await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    await routingSettings(tx, true); // the lock: one replacement at a time
    const ids = input.queues.map((queue) => queue.id);
    // Names free up first (retire, then rename), so swapping two names in one PUT does not trip the unique index.
    const retired = await tx
      .update(caseQueues)
      .set({ retiredAt: now })
      .where(and(notInArray(caseQueues.id, ids), isNull(caseQueues.retiredAt)))
      .returning({ id: caseQueues.id });
    // Each listed queue takes its id as a placeholder name first (unique), then its new name.
    for (const queue of input.queues) await tx.update(caseQueues).set({ name: queue.id }).where(eq(caseQueues.id, queue.id));
    for (const queue of input.queues) {
      await tx
        .insert(caseQueues)
        .values({ id: queue.id, name: queue.name, createdAt: now })
        .onConflictDoUpdate({ target: caseQueues.id, set: { name: queue.name, retiredAt: null } });
    }
    await tx.delete(caseQueueMembers).where(inArray(caseQueueMembers.queueId, ids));
    const members = input.queues.flatMap((queue) => queue.members.map((member) => ({ queueId: queue.id, ...member })));
    if (members.length) await tx.insert(caseQueueMembers).values(members);
    if (retired.length) {
      await moveOpenCases(
        tx,
        context,
        retired.map((row) => row.id),
        now,
      );
      await moveOpenAlerts(
        tx,
        retired.map((row) => row.id),
      );
    }
    await tx.delete(caseRoutingRules);
    if (input.rules.length) {
      await tx.insert(caseRoutingRules).values(
        input.rules.map((rule, position) => ({
          ...(rule.id ? { id: rule.id } : {}),
          position,
          queueId: rule.queueId,
          conditions: rule.conditions,
        })),
      );
    }
    await tx
      .update(caseRoutingSettings)
      .set({ autoAssign: input.autoAssign, capacity: input.capacity, updatedAt: now })
      .where(eq(caseRoutingSettings.id, 1));
    await recordEvent(
      {
        actor: context.actor,
        ip: context.ip,
        pageView: context.pageView,
        action: "case.routing_change",
        outcome: "success",
        details: {
          queues: input.queues.length,
          retired: retired.length,
          rules: input.rules.length,
          members: members.length,
          autoAssign: input.autoAssign,
          capacity: input.capacity,
        },
      },
      tx,
    );
  });
  return readRouting(db);
}

/** Open cases of retired queues go to the default queue, each with a `moved` entry. */
async function moveOpenCases(tx: Database, context: CaseContext, queueIds: string[], now: Date): Promise<void> {
  const moved = await tx
    .update(cases)
    .set({ queueId: DEFAULT_QUEUE_ID, updatedAt: now })
    .where(and(inArray(cases.queueId, queueIds), eq(cases.status, "open")))
    .returning({ id: cases.id });
  if (moved.length === 0) return;
  await tx.insert(caseEntries).values(
    moved.map((row) => ({
      caseId: row.id,
      at: now,
      actorId: context.actor.id,
      kind: "moved",
      details: { to: DEFAULT_QUEUE_ID, retired: true },
    })),
  );
}

/**
 * Open monitoring alerts of retired queues go to the default queue too (routed like cases: lib/monitoring/server/
 * routing.ts). By the table's name: the monitoring feature sits above this one (docs/architecture.md).
 */
async function moveOpenAlerts(tx: Database, queueIds: string[]): Promise<void> {
  await queryRows(
    tx,
    sql`update monitoring_alerts set queue_id = ${DEFAULT_QUEUE_ID} where status = 'open' and queue_id in (${sql.join(
      queueIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) returning id`,
  );
}

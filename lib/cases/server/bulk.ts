import "server-only";

import { and, eq, isNull, ne } from "drizzle-orm";

import { hasPermission } from "@/lib/auth/permissions";
import type { BulkInput } from "@/lib/cases/routing-validation";
import { caseEntries, caseQueues, cases } from "@/lib/cases/server/tables";
import type { BulkResult } from "@/lib/cases/types";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

import { assignCase } from "./assignment";
import { autoAssign } from "./auto-assign";
import { refused, succeeded, type CaseContext } from "./context";
import { caseHere } from "./scope";

/*
 * Bulk actions on the queue: each case on its own, through the same function as the single-case action
 * (assignCase for assign and unassign, moveCase for a move), so each is decided, recorded and audited exactly
 * as it would be alone, and one refused (closed, someone else's, lacking a permission) leaves the others done.
 * What concerns the whole request is checked first: the permission of the action, and that the queue is live.
 */

/** Moves an open case to another live queue (`cases.assign`); it stays with its assignee, if any. */
export async function moveCase(db: Database, context: CaseContext, publicId: string, queueId: string): Promise<{ queueId: string }> {
  const now = new Date();
  const moved = await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const [before] = await tx
      .select({ queueId: cases.queueId, name: caseQueues.name })
      .from(cases)
      .innerJoin(caseQueues, eq(caseQueues.id, cases.queueId))
      .where(caseHere(publicId));
    const [after] = await tx.select({ name: caseQueues.name }).from(caseQueues).where(eq(caseQueues.id, queueId));
    const [row] = await tx
      .update(cases)
      .set({ queueId, updatedAt: now })
      .where(and(caseHere(publicId), eq(cases.status, "open"), ne(cases.queueId, queueId)))
      .returning({ id: cases.id, assigneeId: cases.assigneeId });
    if (!row) return null;
    await tx.insert(caseEntries).values({
      caseId: row.id,
      at: now,
      actorId: context.actor.id,
      kind: "moved",
      details: { from: before?.queueId ?? null, to: queueId },
    });
    // Queue names, not ids: the trail refuses key-shaped values.
    await succeeded(tx, context, "case.move", publicId, { from: before?.name ?? null, to: after?.name ?? null });
    return row;
  });
  if (moved) {
    // An unassigned case entering a queue is auto-assigned there (when the team turned it on).
    if (!moved.assigneeId) await autoAssign(db, [publicId], now);
    return { queueId };
  }
  const [row] = await db.select({ status: cases.status, queueId: cases.queueId }).from(cases).where(caseHere(publicId));
  if (row?.status === "open" && row.queueId === queueId) return { queueId }; // already there: nothing to record
  const error = row ? new AppError("conflict", "This case is closed.") : new AppError("not_found", "No case exists for this verification.");
  return refused(db, context, "case.move", publicId, error);
}

export async function bulkCases(db: Database, context: CaseContext, input: BulkInput): Promise<BulkResult> {
  const assigns = hasPermission(context.actor, "cases.assign");
  if (input.action !== "unassign" && !assigns) {
    throw new AppError("forbidden", `Bulk ${input.action} needs the cases.assign permission.`);
  }
  if (input.action === "move") {
    const [queue] = await db
      .select({ id: caseQueues.id })
      .from(caseQueues)
      .where(and(eq(caseQueues.id, input.queue!), isNull(caseQueues.retiredAt)));
    if (!queue) throw new AppError("validation", "Invalid input: queue: no live queue has this id.", { fields: ["queue"] });
  }
  const results: BulkResult["results"] = [];
  for (const publicId of [...new Set(input.publicIds)]) {
    try {
      if (input.action === "move") await moveCase(db, context, publicId, input.queue!);
      else await assignCase(db, context, publicId, input.action === "assign" ? input.assignee! : null);
      results.push({ publicId, ok: true });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ publicId, ok: false, code: error.code, error: error.message });
    }
  }
  return { results };
}

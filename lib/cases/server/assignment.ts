import "server-only";

import { and, eq, isNotNull, isNull, ne, or, sql } from "drizzle-orm";

import { hasPermission } from "@/lib/auth/permissions";
import { staffUsers } from "@/lib/auth/server/tables";
import { caseEntries, cases, type CaseRow } from "@/lib/cases/server/tables";
import { membersUsing } from "@/lib/connections/server/access";
import type { Database } from "@/lib/db/client";
import { markCasesHandled } from "@/lib/notifications/server/handled";
import { notify } from "@/lib/notifications/server/notify";
import { AppError } from "@/lib/shared/errors";

import { CaseTakenError, inTransaction, refused, succeeded, type CaseContext } from "./context";
import { findCaseRow } from "./detail";
import { publishCaseChange } from "./live";
import { caseHere, connectionHere } from "./scope";

// Assigning a case: a claim, a reassignment or an unassignment, each one conditional UPDATE (./context.ts).

async function holderOf(db: Database, row: CaseRow): Promise<{ id: string; email: string } | null> {
  if (!row.assigneeId) return null;
  const [staff] = await db.select({ id: staffUsers.id, email: staffUsers.email }).from(staffUsers).where(eq(staffUsers.id, row.assigneeId));
  return staff ?? { id: row.assigneeId, email: "another staff member" };
}

export type Assignee = "me" | string | null;

/**
 * Notifications follow the case: reassigned away, it is handled for the member who held it (what they were told
 * of it is read); given to someone by another member, they are told ("assigned to you"), once per assignment.
 */
async function tellOfAssignment(
  db: Database,
  change: { publicId: string; from: string | null; to: string | null; actorId: string; entryId: number; now: Date },
): Promise<void> {
  if (change.from && change.from !== change.to) await markCasesHandled(db, [change.publicId], { userId: change.from, now: change.now });
  if (change.to && change.to !== change.actorId) {
    await notify(db, {
      userIds: [change.to],
      kind: "case_assigned",
      casePublicId: change.publicId,
      dedupeKey: `assign:${change.entryId}`,
      actorId: change.actorId,
    });
  }
}

/** Assign to me, to someone (`cases.assign`), or unassign. Answers the new assignee's id. */
export async function assignCase(
  db: Database,
  context: CaseContext,
  publicId: string,
  assignee: Assignee,
): Promise<{ assigneeId: string | null }> {
  const { actor } = context;
  const assigns = hasPermission(actor, "cases.assign");
  const action = assignee === null ? "case.unassign" : "case.assign";
  if (assignee !== null && assignee !== "me" && assignee !== actor.id && !assigns) {
    return refused(
      db,
      context,
      action,
      publicId,
      new AppError("forbidden", "Assigning a case to someone else needs the cases.assign permission."),
    );
  }
  const to = assignee === "me" ? actor.id : assignee;
  // An analyst naming their own id is claiming, exactly like "me".
  const claim = assignee === "me" || (to === actor.id && !assigns);
  let assigneeEmail = actor.email;
  if (to !== null && to !== actor.id) {
    const [staff] = await db
      .select({ disabled: staffUsers.disabled, email: staffUsers.email })
      .from(staffUsers)
      .where(eq(staffUsers.id, to));
    if (!staff || staff.disabled) {
      return refused(
        db,
        context,
        action,
        publicId,
        new AppError("validation", "Invalid input: assignee: no active staff member has this id.", { fields: ["assignee"] }),
      );
    }
    // A member not given the case's connection (issue 33): to them the case does not exist, so it is not theirs to hold.
    if ((await membersUsing(db, [to], connectionHere())).length === 0) {
      return refused(
        db,
        context,
        action,
        publicId,
        new AppError("validation", "Invalid input: assignee: this member is not given this connection.", { fields: ["assignee"] }),
      );
    }
    assigneeEmail = staff.email;
  }
  const now = new Date();
  // "me" is a claim, for cases.assign holders too: only an unassigned case, so of two claims at once one wins.
  // A cases.assign holder naming a staff id (their own included) reassigns whoever holds it.
  const guard =
    to === null
      ? assigns
        ? isNotNull(cases.assigneeId)
        : eq(cases.assigneeId, actor.id)
      : claim
        ? isNull(cases.assigneeId)
        : or(isNull(cases.assigneeId), ne(cases.assigneeId, to))!;
  // An escalation goes to someone other than its author: nobody decides their own escalation.
  const notOwnEscalation =
    to === null ? undefined : sql`not (coalesce(${cases.recommendation} = 'escalate', false) and ${cases.outcomeBy} = ${to})`;
  const done = await inTransaction(db, async (tx) => {
    const [before] = await tx.select({ assigneeId: cases.assigneeId }).from(cases).where(caseHere(publicId));
    const [row] = await tx
      .update(cases)
      .set({ assigneeId: to, assignedAt: to ? now : null, updatedAt: now })
      .where(and(caseHere(publicId), eq(cases.status, "open"), guard, notOwnEscalation))
      .returning({ id: cases.id });
    if (!row) return false;
    const [entry] = await tx
      .insert(caseEntries)
      .values({ caseId: row.id, at: now, actorId: actor.id, kind: to ? "assigned" : "unassigned", details: { assigneeId: to } })
      .returning({ id: caseEntries.id });
    await tellOfAssignment(tx, { publicId, from: before?.assigneeId ?? null, to, actorId: actor.id, entryId: entry!.id, now });
    await succeeded(tx, context, action, publicId, to && to !== actor.id ? { assignee: assigneeEmail } : {});
    await publishCaseChange(tx, to ? "case.assigned" : "case.unassigned", publicId);
    return true;
  });
  if (done) return { assigneeId: to };
  // Nothing changed: say why, from the case as it is now.
  const row = await findCaseRow(db, publicId, connectionHere());
  if (!row) return refused(db, context, action, publicId, new AppError("not_found", "No case exists for this verification."));
  if (row.status !== "open") return refused(db, context, action, publicId, new AppError("conflict", "This case is closed."));
  if (row.assigneeId === to) return { assigneeId: to }; // already so: nothing to record
  if (to !== null && row.recommendation === "escalate" && row.outcomeBy === to) {
    return refused(db, context, action, publicId, new AppError("forbidden", "An escalation goes to someone other than its author."));
  }
  const holder = await holderOf(db, row);
  if (to === null)
    return refused(
      db,
      context,
      action,
      publicId,
      new AppError("forbidden", `Only the assignee, or someone holding cases.assign, unassigns this case.`),
    );
  return refused(db, context, action, publicId, new CaseTakenError(holder!));
}

import "server-only";

import type { AuditActionName } from "@/lib/audit-trail/action-names";
import { failureOf, recordEvent, type AuditDetails } from "@/lib/audit-trail/server";
import type { AuditEvent } from "@/lib/audit-trail/server/record";
import type { Permission } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";

/*
 * What every case action (./assignment.ts, ./notes.ts, ./outcome.ts) shares: who acts, the record of its success,
 * the refusal, the transaction. Each action is database-only: one conditional UPDATE decides (never read-then-write, so two
 * instances racing for a claim or a confirmation get one winner), and the history entry and the audit
 * event commit in the same transaction. A refused action is recorded on the trail too (best effort,
 * outside the rolled-back transaction) and answered with the reason: 404, 403 or 409 naming the holder.
 * Notes' and comments' text stays in the case history, never in the audit trail, and is sealed at rest
 * (./sealed-text.ts).
 */

export interface CaseActor {
  id: string;
  email: string;
  /** The actor's permissions: `cases.assign` assigns to others and unassigns anyone. */
  permissions: readonly Permission[];
}

export interface CaseContext {
  actor: CaseActor;
  ip: string | null;
  /** The request's page view (lib/audit-trail/server/context.ts), written into each event. */
  pageView?: string;
  /** The request's origin: the link in notifications sent out when no public address is configured. */
  origin?: string;
}

/** 409 when someone else holds the case; the message names them. */
export class CaseTakenError extends AppError {
  constructor(readonly holder: { id: string; email: string }) {
    super("conflict", `This case is assigned to ${holder.email}.`);
  }
}

export function caseTarget(publicId: string) {
  return { type: "verification", id: publicId } as const;
}

/** The trail's event of a case action: who acted, from where, on which verification's case. */
function caseEvent(
  context: CaseContext,
  action: AuditActionName,
  publicId: string,
  outcome: AuditEvent["outcome"],
  details: AuditDetails,
): AuditEvent {
  return {
    actor: { id: context.actor.id, email: context.actor.email },
    ip: context.ip,
    pageView: context.pageView,
    action,
    target: caseTarget(publicId),
    outcome,
    details,
  };
}

/** Records an action's success on the trail, in the transaction that made it. */
export async function succeeded(
  tx: Database,
  context: CaseContext,
  action: AuditActionName,
  publicId: string,
  details: AuditDetails,
): Promise<void> {
  await recordEvent(caseEvent(context, action, publicId, "success", details), tx);
}

/** Records a refused action on the trail and throws its error. */
export async function refused(
  db: Database,
  context: CaseContext,
  action: AuditActionName,
  publicId: string,
  error: AppError,
): Promise<never> {
  // The trail's one failure vocabulary (denied for 403, the error code as the reason).
  const { outcome, reason } = failureOf(error);
  await recordEvent(caseEvent(context, action, publicId, outcome, { reason }), db).catch((auditError: unknown) =>
    log.error("audit_failed", { action, error: auditError }),
  );
  throw error;
}

export async function inTransaction<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Database));
}

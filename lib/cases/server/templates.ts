import "server-only";

import { and, asc, count, eq, isNull, or, sql } from "drizzle-orm";

import type { AuditActionName } from "@/lib/audit-trail/action-names";
import { recordEvent, type AuditDetails } from "@/lib/audit-trail/server";
import { hasPermission } from "@/lib/auth/permissions";
import { pgErrorCode } from "@/lib/auth/server/staff-store";
import type { Recommendation } from "@/lib/cases/rules";
import { caseTemplates, type CaseTemplateRow } from "@/lib/cases/server/tables";
import { REASONS_OF_KIND, type CreateTemplateInput, type UpdateTemplateInput } from "@/lib/cases/template-validation";
import { MAX_TEMPLATES_PER_OWNER, reasonsNotForKind, type CaseTemplate } from "@/lib/cases/templates";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

import { inTransaction, type CaseActor, type CaseContext } from "./context";

/*
 * Decision templates (issue 32): the team's (every member who decides cases reads them; cases.assign manages them)
 * and each member's own (nobody else sees them: another member's is 404, never 403). Retired, never deleted. Each
 * change is on the audit trail with its kind and scope, never its words (they are a template, but free text).
 */

const TEAM_MANAGER = "cases.assign";

function toDto(row: CaseTemplateRow, actor: CaseActor): CaseTemplate {
  return {
    id: row.id,
    kind: row.kind,
    scope: row.scope,
    name: row.name,
    reasons: row.reasons as CaseTemplate["reasons"],
    comment: row.comment,
    editable: row.scope === "personal" || hasPermission(actor, TEAM_MANAGER),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the member may read: the team's live templates and their own. */
const visibleTo = (actor: CaseActor) =>
  and(isNull(caseTemplates.retiredAt), or(eq(caseTemplates.scope, "team"), eq(caseTemplates.ownerId, actor.id)));

/** The team's templates first (their numbers are the same for everyone), then the member's own; by name within each. */
export async function listTemplates(db: Database, actor: CaseActor, kind?: Recommendation): Promise<CaseTemplate[]> {
  const rows = await db
    .select()
    .from(caseTemplates)
    .where(and(visibleTo(actor), kind ? eq(caseTemplates.kind, kind) : undefined))
    .orderBy(asc(caseTemplates.kind), sql`${caseTemplates.scope} <> 'team'`, asc(sql`lower(${caseTemplates.name})`));
  return rows.map((row) => toDto(row, actor));
}

function assertMayManage(actor: CaseActor, scope: CaseTemplate["scope"]): void {
  if (scope === "team" && !hasPermission(actor, TEAM_MANAGER)) {
    throw new AppError("forbidden", "The team's templates are managed by members holding cases.assign.");
  }
}

async function audit(
  tx: Database,
  context: CaseContext,
  { action, row, extra = {} }: { action: AuditActionName; row: CaseTemplateRow; extra?: AuditDetails },
): Promise<void> {
  await recordEvent(
    {
      actor: { id: context.actor.id, email: context.actor.email },
      ip: context.ip,
      pageView: context.pageView,
      action,
      target: { type: "case_template", id: row.id },
      outcome: "success",
      details: { kind: row.kind, scope: row.scope, reasons: row.reasons.length, ...extra },
    },
    tx,
  );
}

/** 409 naming `name` when a live template of this kind and scope (and owner) already has it, whatever its case. */
async function nameTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (pgErrorCode(error) === "23505") {
      throw new AppError("conflict", "A template of this kind already has this name.", { fields: ["name"] });
    }
    throw error;
  }
}

export async function createTemplate(db: Database, context: CaseContext, input: CreateTemplateInput): Promise<CaseTemplate> {
  assertMayManage(context.actor, input.scope);
  const ownerId = input.scope === "personal" ? context.actor.id : null;
  const row = await nameTaken(() =>
    inTransaction(db, async (tx) => {
      const [held] = await tx
        .select({ value: count() })
        .from(caseTemplates)
        .where(and(isNull(caseTemplates.retiredAt), ownerId ? eq(caseTemplates.ownerId, ownerId) : eq(caseTemplates.scope, "team")));
      if ((held?.value ?? 0) >= MAX_TEMPLATES_PER_OWNER) {
        throw new AppError("conflict", `There are already ${MAX_TEMPLATES_PER_OWNER} templates here: retire one first.`);
      }
      const [inserted] = await tx
        .insert(caseTemplates)
        .values({ ...input, ownerId, createdBy: context.actor.id })
        .returning();
      await audit(tx, context, { action: "case.template_create", row: inserted! });
      return inserted!;
    }),
  );
  return toDto(row, context.actor);
}

/** The live template the member may change: another member's own, or none, is 404; the team's without cases.assign 403. */
async function manageable(tx: Database, actor: CaseActor, id: string): Promise<CaseTemplateRow> {
  const [row] = await tx
    .select()
    .from(caseTemplates)
    .where(and(eq(caseTemplates.id, id), visibleTo(actor)))
    .for("update");
  if (!row) throw new AppError("not_found", "No template of yours or of the team has this id.");
  assertMayManage(actor, row.scope);
  return row;
}

export async function updateTemplate(db: Database, context: CaseContext, id: string, input: UpdateTemplateInput): Promise<CaseTemplate> {
  const row = await nameTaken(() =>
    inTransaction(db, async (tx) => {
      const current = await manageable(tx, context.actor, id);
      // A new kind keeps only reasons it may cite: the reasons sent, or those kept when none are.
      if (reasonsNotForKind(input.kind ?? current.kind, input.reasons ?? current.reasons).length > 0) {
        throw new AppError("validation", `Invalid input: reasons: ${REASONS_OF_KIND}.`, { fields: ["reasons"] });
      }
      const [updated] = await tx
        .update(caseTemplates)
        .set({ ...input, updatedAt: new Date() })
        .where(eq(caseTemplates.id, id))
        .returning();
      await audit(tx, context, {
        action: "case.template_change",
        row: updated!,
        extra: {
          fields: Object.keys(input).sort().join(","),
          ...(updated!.kind !== current.kind ? { previousKind: current.kind } : {}),
        },
      });
      return updated!;
    }),
  );
  return toDto(row, context.actor);
}

/** Retires a template (it leaves every list; the trail keeps its id). */
export async function retireTemplate(db: Database, context: CaseContext, id: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const current = await manageable(tx, context.actor, id);
    const [retired] = await tx.update(caseTemplates).set({ retiredAt: new Date() }).where(eq(caseTemplates.id, current.id)).returning();
    await audit(tx, context, { action: "case.template_retire", row: retired! });
  });
}

import "server-only";

import { and, eq, isNull } from "drizzle-orm";

import { auditableDetail, failureOf, recordEvent, type AuditDetails, type RequestContext } from "@/lib/audit-trail/server";
import type { Database } from "@/lib/db/client";
import { integrationKeys } from "@/lib/integrations/server/tables";
import type { IntegrationKeySummary } from "@/lib/integrations/validation";
import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";

import { listIntegrationKeys } from "./integrations";

/*
 * Retiring an integration key: the contract offers only the creation of a key (POST /integrations), no operation
 * that revokes one, so nothing is sent to the service. The key is marked retired in the registry, with who did it,
 * when and why, and the event `integration.retire` is written in the same transaction: no mark without its record.
 * The key stays valid at the service until an admin revokes it in the provider's own dashboard; the page says so.
 * ASSUMPTION (docs/assumptions.md#integration-key-retire).
 */

const ACTION = "integration.retire";

class IntegrationKeyNotFoundError extends AppError {
  constructor() {
    super("not_found", "No key with this id was created through the dashboard.");
  }
}

class IntegrationKeyRetiredError extends AppError {
  readonly auditOutcome = "failure";
  readonly auditReason = "already_retired";

  constructor() {
    super("conflict", "This key is already marked retired.");
  }
}

class ReasonNotRecordableError extends AppError {
  constructor() {
    super("validation", "Invalid input: reason: holds something the audit trail does not record (a URL, a token or a key).", {
      fields: ["reason"],
    });
  }
}

function eventOf(context: RequestContext, upstreamId: number, outcome: "success" | "failure" | "denied", details: AuditDetails) {
  return {
    actor: context.actor,
    ip: context.ip,
    pageView: context.pageView,
    action: ACTION,
    target: { type: "integration", id: String(upstreamId) },
    outcome,
    details,
  };
}

/** Whether the registry marks the key retired: its value is then not shown again, even to the admin who created it. */
export async function isRetiredKey(db: Database, upstreamId: number): Promise<boolean> {
  const [row] = await db
    .select({ retiredAt: integrationKeys.retiredAt })
    .from(integrationKeys)
    .where(eq(integrationKeys.upstreamId, upstreamId));
  return row?.retiredAt != null;
}

/** Marks the key retired (404: not in the registry; 409: already retired) and answers it as now listed. */
export async function retireIntegrationKey(
  db: Database,
  context: RequestContext,
  { upstreamId, reason, now = new Date() }: { upstreamId: number; reason: string; now?: Date },
): Promise<IntegrationKeySummary> {
  try {
    // What the trail would refuse to keep (a URL, a CPF, a token) is refused here, naming the field.
    if (auditableDetail(reason) === null) throw new ReasonNotRecordableError();
    return await db.transaction(async (tx) => {
      const [marked] = await tx
        .update(integrationKeys)
        .set({ retiredAt: now, retiredBy: context.actor?.id ?? null, retireReason: reason })
        .where(and(eq(integrationKeys.upstreamId, upstreamId), isNull(integrationKeys.retiredAt)))
        .returning({ label: integrationKeys.label, domain: integrationKeys.domain });
      if (!marked) {
        const [known] = await tx.select({ id: integrationKeys.id }).from(integrationKeys).where(eq(integrationKeys.upstreamId, upstreamId));
        throw known ? new IntegrationKeyRetiredError() : new IntegrationKeyNotFoundError();
      }
      const details = { label: auditableDetail(marked.label), domain: auditableDetail(marked.domain), retireReason: reason };
      await recordEvent(eventOf(context, upstreamId, "success", details), tx);
      const [key] = await listIntegrationKeys(tx, upstreamId);
      return key!;
    });
  } catch (error) {
    if (error instanceof AppError) {
      // A refusal is on the trail too, best effort (the caller still gets the refusal itself).
      const { outcome, reason: failure } = failureOf(error);
      await recordEvent(eventOf(context, upstreamId, outcome, { reason: failure })).catch((auditError: unknown) =>
        log.error("audit_failed", { action: ACTION, error: auditError }),
      );
    }
    throw error;
  }
}

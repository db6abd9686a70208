import "server-only";

import { auditableDetail, auditableTarget, type AuditTarget } from "@/lib/audit-trail/server";

/*
 * The receiver's system events on the audit trail (actor-less: the service acted). Identifiers come from
 * an unauthenticated sender's body; the trail refuses some shapes (an 11-digit run that is a valid CPF,
 * a long encoded run), and a refused identifier must drop from the event rather than refuse the delivery,
 * or the sender would redeliver it forever.
 */

export function webhookTarget(type: "verification" | "webhook_delivery", id: string | null): AuditTarget | undefined {
  return id ? auditableTarget({ type, id }) : undefined;
}

export { auditableDetail };

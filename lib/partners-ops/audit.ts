import "server-only";

import { assertAuditable, AuditContentError, record, type AuditEvent } from "@/lib/audit";
import { log } from "@/lib/log";

/** True when `purpose` may be stored as an event's purpose (checked before any upstream call). */
export function isAuditablePurpose(purpose: string): boolean {
  try {
    assertAuditable({ actor: null, action: "probe.value", outcome: "success", purpose });
    return true;
  } catch (error) {
    if (error instanceof AuditContentError) return false;
    throw error;
  }
}

/**
 * Records the failure of an action that is already being refused: best effort, so the error the user
 * sees stays the original one. Successes use `record()` directly: if that fails, the action is refused.
 */
export async function recordFailure(event: AuditEvent): Promise<void> {
  try {
    await record(event);
  } catch (error) {
    log.error("audit_failure_not_recorded", { action: event.action, error });
  }
}

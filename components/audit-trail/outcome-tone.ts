import type { BadgeTone } from "@/components/ui/badge";
import type { AuditOutcome } from "@/lib/audit-trail/outcomes";

/** The badge an audit event's outcome wears, on the audit log and in a titular's report alike. */
export const OUTCOME_TONE: Record<AuditOutcome, BadgeTone> = {
  success: "success",
  failure: "danger",
  denied: "warning",
  intent: "info",
};

/** A cell of the audit log's table (./audit-event-table.tsx, ./audit-event-group.tsx). */
export const AUDIT_CELL_CLASS = "align-top text-sm text-slate-800";

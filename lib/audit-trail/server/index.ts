import "server-only";

// The audit trail: the writer (record.ts), the audited-action helper (actions.ts) and who acted from
// where (context.ts). Reading the log is service.ts; verifying the chain is verify.ts; removing events past
// retention is prune.ts (pruneAuditEvents), signed checkpoints are checkpoint.ts.

export { audited, auditedAction, failureOf, isOutcomeUnknown, type AuditedFailure } from "./actions";
export { requestContext, type RequestContext } from "./context";
// The retention pruner's one way to delete audit events (the database refuses any other: prune.ts).
export { pruneAuditEvents } from "./prune";
export {
  auditableDetail,
  auditableTarget,
  AuditContentError,
  cpfHash,
  cpfHashes,
  recordEvent,
  type AuditDetails,
  type AuditTarget,
} from "./record";

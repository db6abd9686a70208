import "server-only";

// The audit trail: the writer (record.ts), the audited-action helper (actions.ts) and who acted from
// where (context.ts). Reading the log is service.ts; verifying the chain is verify.ts; removing events past
// retention is prune.ts (pruneAuditEvents), signed checkpoints are checkpoint.ts.

export {
  audited,
  auditedAction,
  AuditUnavailableError,
  failureOf,
  isOutcomeUnknown,
  type AuditedFailure,
  type AuditDeps,
  type AuditSpec,
} from "./actions";
export { anchorAuditHead, listAuditCheckpoints, type HeadCheckpoint } from "./checkpoint";
export { requestContext, type RequestContext } from "./context";
// The retention pruner's one way to delete audit events (the database refuses any other: prune.ts).
export { BrokenChainError, pruneAuditEvents } from "./prune";
export {
  assertAuditable,
  auditableDetail,
  auditableTarget,
  AuditContentError,
  AUDIT_OUTCOMES,
  cpfHash,
  cpfHashes,
  maskCpf,
  recordEvent,
  type AuditActor,
  type AuditDetails,
  type AuditEvent,
  type AuditOutcome,
  type AuditTarget,
} from "./record";

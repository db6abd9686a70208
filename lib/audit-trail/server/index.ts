import "server-only";

// The audit trail: the writer (record.ts), the audited-action helper (actions.ts) and who acted from
// where (context.ts). Reading the log is service.ts; verifying the chain is verify.ts.

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
export { requestContext, type RequestContext } from "./context";
export {
  assertAuditable,
  auditableDetail,
  auditableTarget,
  AuditContentError,
  AUDIT_OUTCOMES,
  cpfHash,
  maskCpf,
  recordEvent,
  type AuditActor,
  type AuditDetails,
  type AuditEvent,
  type AuditOutcome,
  type AuditTarget,
} from "./record";

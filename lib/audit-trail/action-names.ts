/*
 * Every action name the dashboard writes to the audit trail, for the audit page's action filter: the
 * analyst picks a real name instead of guessing one (`lookup.cpf` matches nothing; the lookups are
 * `lookup.cpf_receita` and `lookup.cpf_history`). A test scans the source so a new action cannot be
 * written without being listed here. Shared: no server imports.
 */
export const AUDIT_ACTION_NAMES = [
  "audit.export",
  "audit.prune",
  "audit.view",
  "auth.factor_enrol",
  "auth.factor_remove",
  "auth.second_factor",
  "auth.session_end",
  "auth.sign_in",
  "auth.sign_out",
  "auth.step_up",
  "case.assign",
  "case.confirm",
  "case.escalate",
  "case.list",
  "case.move",
  "case.note_add",
  "case.outcome",
  "case.reverification",
  "case.routing_change",
  "case.sync",
  "case.text_reseal",
  "case.unassign",
  "case.view",
  "integration.create",
  "integration.key_forget",
  "integration.key_reveal",
  "kyc.session_start",
  "lookup.cpf_history",
  "lookup.cpf_receita",
  "lookup.verification_record",
  "notification.send",
  "overview.export",
  "overview.view",
  "privacy.erasure.cancel",
  "privacy.erasure.confirm",
  "privacy.erasure.request",
  "privacy.report",
  "retention.prune",
  "role.create",
  "role.retire",
  "role.update",
  "search.rekey",
  "search.verification",
  "sms.send",
  "sms.validate",
  "staff.availability",
  "staff.create",
  "staff.disable",
  "staff.enable",
  "staff.factors_reset",
  "staff.invite",
  "staff.password_change",
  "staff.role_change",
  "staff.sessions_end",
  "staff.sso_only",
  "staff.sign_in_unlock",
  "verification.create",
  "verification.crop_clear",
  "verification.crop_set",
  "verification.export",
  "verification.export_subject",
  "verification.image",
  "verification.list",
  "verification.media",
  "verification.related",
  "verification.view",
  "webhook.process",
  "webhook.receive",
] as const;

/** One of the catalogue's names: a recorder typed with it cannot write a name the catalogue lacks. */
export type AuditActionName = (typeof AUDIT_ACTION_NAMES)[number];

/** The catalogue plus any other name already on the trail (an older version's), sorted, without duplicates. */
export function actionChoices(recorded: readonly string[]): string[] {
  return [...new Set([...AUDIT_ACTION_NAMES, ...recorded])].sort();
}

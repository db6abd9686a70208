// Shared (no imports at all: drizzle-kit, the server and the browser all load it).

/**
 * What an audit event says happened. `intent` is written before an action with an upstream side effect
 * (no intent on the trail, no call); its outcome follows as a second event naming the intent's id. An
 * intent without an outcome means nobody knows how the call ended: `npm run audit:verify` lists them.
 */
export const AUDIT_OUTCOMES = ["success", "failure", "denied", "intent"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

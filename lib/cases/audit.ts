import "server-only";

// The audit trail's writer under the name the route kit gives it (shared contract 2); the kit's branch
// moves lib/audit.ts into lib/audit-trail/, and this one line follows it at merge.
export { record as recordEvent, type AuditEvent } from "@/lib/audit";

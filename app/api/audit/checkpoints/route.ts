import { json, route } from "@/lib/api/route";
import { exportAuditCheckpoints, refuseAuditAccess } from "@/lib/audit-trail/server/service";
import { auditCheckpointsSchema } from "@/lib/audit-trail/types";

// GET /api/audit/checkpoints – every signed checkpoint of the audit chain as JSON (audit.export), for an admin to
// keep outside the database. Audited as audit.export; a refused attempt is on the trail too.
export const GET = route(
  { permission: "audit.export", denied: ({ context }) => refuseAuditAccess(context, "audit.export") },
  async ({ db, context }) => json(auditCheckpointsSchema.parse(await exportAuditCheckpoints(db, context))),
);

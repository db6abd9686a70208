import "server-only";

import { auditableDetail as auditable, type AuditDetails } from "@/lib/audit-trail";
import type { VerificationFilters } from "@/lib/validations/verifications";

/** The filters of a list view, as flat audit details (values are plain tokens and dates). */
export function listDetails(filters: VerificationFilters): AuditDetails {
  const details: AuditDetails = {};
  if (filters.status?.length) details.status = auditable(filters.status.join(","));
  if (filters.flow) details.flow = auditable(filters.flow);
  if (filters.journey) details.journey = auditable(filters.journey);
  if (filters.from) details.from = filters.from;
  if (filters.to) details.to = filters.to;
  if (filters.per_page) details.perPage = filters.per_page;
  details.page = filters.page ?? 1;
  return details;
}

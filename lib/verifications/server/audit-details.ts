import "server-only";

import { auditableDetail as auditable, type AuditDetails } from "@/lib/audit-trail/server/record";
import { FILTER_KEYS, filterParam, VERIFICATION_FILTERS, type VerificationFilters } from "@/lib/upstream/model/verification-query";

/**
 * The filters of a list view, as flat audit details under their dashboard names. Free words go through
 * `auditable` (a value the trail would refuse, such as a CPF typed as a flow, is dropped, not the view);
 * dates and counts are plain.
 */
export function listDetails(filters: VerificationFilters): AuditDetails {
  const details: AuditDetails = {};
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value === undefined || filterParam(value) === "") continue;
    if (typeof value === "number") details[key] = value;
    else details[key] = VERIFICATION_FILTERS[key].kind === "date" ? filterParam(value) : auditable(filterParam(value));
  }
  details.page = filters.page ?? 1;
  return details;
}

import "server-only";

import { assertAuditable, AuditContentError, type AuditDetails } from "@/lib/audit";
import type { VerificationFilters } from "@/lib/validations/verifications";

/** A free filter value, or null when the trail would refuse it (an 11-digit token looks like a CPF). */
function auditable(value: string): string | null {
  try {
    assertAuditable({ actor: null, action: "probe.value", outcome: "success", details: { value } });
    return value;
  } catch (error) {
    if (error instanceof AuditContentError) return null;
    throw error;
  }
}

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

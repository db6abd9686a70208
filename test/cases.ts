import "server-only";

import { BUILT_IN_PERMISSIONS } from "@/lib/auth/permissions";
import type { Role } from "@/lib/auth/roles";
import { createStaff } from "@/lib/auth/server/staff-store";
import type { CaseSettings } from "@/lib/cases/rules";
import type { CaseContext } from "@/lib/cases/server/context";
import type { SyncClient } from "@/lib/cases/server/sync";
import type { Database } from "@/lib/db/client";
import { UpstreamNotFoundError } from "@/lib/upstream/errors";
import type { Verification, VerificationList } from "@/lib/upstream/model/verification";
import type { VerificationChange } from "@/lib/webhooks/server/changes";

// Tests and the benchmark only.

export const TEST_SETTINGS: CaseSettings = {
  redFlags: ["pep", "restrictive_list", "low_facematch", "high_risk"],
  riskThreshold: 70,
  slaHours: 24,
};

let counter = 0;

/** A verification as the core client reshapes it; review, no red flag, unless overridden. */
export function makeVerification(overrides: Partial<Verification> & { similarity?: number } = {}): Verification {
  counter += 1;
  const { similarity = 91.5, ...rest } = overrides;
  return {
    publicId: `ver-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`,
    document: "***.982.247-**",
    documentMasked: true,
    status: "review",
    createdAt: new Date().toISOString(),
    steps: [
      { name: "ocr", state: "approved", notices: [], extra: {} },
      { name: "liveness", state: "approved", score: 95, notices: [], extra: {} },
      { name: "facematch", state: similarity < 80 ? "review" : "approved", similarity, notices: [], extra: {} },
    ],
    identityScore: 800,
    riskScore: 20,
    pepOrigin: null,
    restrictiveLists: [],
    person: {},
    extra: {},
    ...rest,
  };
}

/** A change as the webhook processor hands it to listeners: an update without scores, time or account, unless overridden. */
export function makeChange(fields: Pick<VerificationChange, "publicId"> & Partial<VerificationChange>): VerificationChange {
  return {
    event: "verification.updated",
    status: null,
    refId: null,
    occurredAt: new Date(),
    identityScore: null,
    fraudScore: null,
    decidedAt: null,
    tenantPublicId: null,
    deliveryId: `dlv-${Math.random().toString(36).slice(2, 10)}`,
    ...fields,
  };
}

export async function makeStaff(db: Database, role: Role, label = role): Promise<CaseContext> {
  counter += 1;
  const email = `${label}-${counter}-${Math.random().toString(36).slice(2, 8)}@test.local`;
  const staff = await createStaff(db, { email, name: label, role, passwordHash: null, mustChangePassword: false });
  return { actor: { id: staff.id, email: staff.email, permissions: BUILT_IN_PERMISSIONS[role] }, ip: "203.0.113.9" };
}

/** An in-memory list with `status=review` paging, counting calls like the sandbox's request log would. */
export class FakeSyncClient implements SyncClient {
  calls = 0;
  constructor(public items: Verification[]) {}

  async listVerifications(filters: { status: string[]; per_page: number; page: number }): Promise<VerificationList> {
    this.calls += 1;
    const matching = this.items.filter((item) => filters.status.includes(item.status));
    const start = (filters.page - 1) * filters.per_page;
    return {
      items: matching.slice(start, start + filters.per_page),
      pagination: { page: filters.page, perPage: filters.per_page, total: matching.length },
    };
  }

  async getVerification(publicId: string): Promise<Verification> {
    this.calls += 1;
    const found = this.items.find((item) => item.publicId === publicId);
    if (!found)
      throw new UpstreamNotFoundError(
        { upstream: "core", method: "GET", route: "/public/validations-persons/{public_id}", status: 404 },
        "not found",
      );
    return found;
  }
}

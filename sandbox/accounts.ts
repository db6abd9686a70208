/*
 * The partners API's accounts and their integrations (domain + integration token). Two seeded accounts;
 * integrations created through POST /integrations take their ids from the persistent counters (ids.ts).
 */
import { createHash, randomUUID } from "node:crypto";

import type { Clock } from "./clock";
import type { IdCounters } from "./ids";

export interface Account {
  tenantId: number;
  userId: number;
  username: string;
  passwordDigest: Buffer;
}

export interface Integration {
  id: number;
  id_user: number;
  tenant_id: number;
  label: string;
  domain: string;
  uuid: string;
  created_at: string;
  updated_at: string;
}

export function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** ISO 8601 with an explicit UTC offset, as the partners API shows timestamps: 2026-10-01T12:00:00+00:00. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

export class PartnerAccounts {
  readonly accounts: readonly Account[] = [
    { tenantId: 1, userId: 1, username: "backoffice", passwordDigest: digest("sandbox-partner-password") },
    { tenantId: 2, userId: 2, username: "other", passwordDigest: digest("other-partner-password") },
  ];
  /** By integration token (uuid). */
  readonly integrations = new Map<string, Integration>();

  constructor(
    private readonly ids: IdCounters,
    private readonly clock: Clock,
  ) {
    const seeded = isoWithOffset(Date.UTC(2026, 9, 1, 12, 0, 0));
    this.add({
      id: 1,
      id_user: 1,
      tenant_id: 1,
      label: "Back office (sandbox)",
      domain: "backoffice.sandbox.local",
      uuid: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10",
      created_at: seeded,
      updated_at: seeded,
    });
    // The back office's widget integration: its token goes in widget addresses only (never a lookup token).
    this.add({
      id: 3,
      id_user: 1,
      tenant_id: 1,
      label: "Back office widget (sandbox)",
      domain: "backoffice.sandbox.local",
      uuid: "3d6b9e2a-7c14-4f85-a0d3-5e8f1b2c4a97",
      created_at: seeded,
      updated_at: seeded,
    });
    this.add({
      id: 2,
      id_user: 2,
      tenant_id: 2,
      label: "Other account",
      domain: "other.sandbox.local",
      uuid: "7f3e2d1c-0b9a-4876-a5b4-c3d2e1f0a9b8",
      created_at: seeded,
      updated_at: seeded,
    });
  }

  private add(integration: Integration): void {
    this.integrations.set(integration.uuid, integration);
  }

  byUsername(username: string | undefined): Account | undefined {
    return this.accounts.find((account) => account.username === username);
  }

  byTenant(tenantId: number): Account | undefined {
    return this.accounts.find((account) => account.tenantId === tenantId);
  }

  createIntegration(account: Account, domain: string, label: string): Integration {
    const now = isoWithOffset(this.clock.now());
    const integration: Integration = {
      id: this.ids.take("integration"),
      id_user: account.userId,
      tenant_id: account.tenantId,
      label,
      domain,
      uuid: randomUUID(),
      created_at: now,
      updated_at: now,
    };
    this.add(integration);
    return integration;
  }

  domainsOf(account: Account): Set<string> {
    const domains = new Set<string>();
    for (const integration of this.integrations.values()) if (integration.tenant_id === account.tenantId) domains.add(integration.domain);
    return domains;
  }
}

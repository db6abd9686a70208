import "server-only";

import { createHash } from "node:crypto";

import { desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { auditableDetail, auditedAction, isOutcomeUnknown, type AuditedFailure, type RequestContext } from "@/lib/audit-trail/server";
import { staffUsers } from "@/lib/auth/server/tables";
import type { Database } from "@/lib/db/client";
import { clear, countInWindow, increment } from "@/lib/db/rate-limit";
import { integrationKeys } from "@/lib/integrations/server/tables";
import { integrationKeyStateOf, parseDomain, type CreateIntegrationInput, type IntegrationKeySummary } from "@/lib/integrations/validation";
import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";
import type { Integration } from "@/lib/upstream/model/partners";
import type { PartnersClient } from "@/lib/upstream/partners";

/*
 * Integration keys created from the dashboard. The service's own list route is not in the contract, so
 * the dashboard keeps a registry of the keys it created: metadata only. The key value (`uuid`) goes to
 * the admin once, in the creation answer, and into the sealed reveal cookie (reveal-cookie.ts); never
 * into this table, a log or the audit trail.
 */

/** A creation of the same host and label inside this window needs an explicit confirmation. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

function duplicateKey(input: { domain: string; label: string }): string {
  const parsed = parseDomain(input.domain);
  const host = "host" in parsed ? parsed.host : input.domain.trim().toLowerCase();
  const digest = createHash("sha256").update(`${host}\n${input.label.trim().toLowerCase()}`).digest("hex").slice(0, 32);
  return `integration-create:${digest}`;
}

/**
 * Counts this attempt against the duplicate guard and tells whether another attempt with the same host
 * and label happened within the window (this window or the one before, so a pair of clicks straddling a
 * window boundary is still caught). Database counters: every instance sees the same attempts.
 */
async function isRecentDuplicate(db: Database, key: string, now: Date): Promise<boolean> {
  const current = await increment(db, key, DUPLICATE_WINDOW_MS, now);
  if (current > 1) return true;
  const previous = await countInWindow(db, key, DUPLICATE_WINDOW_MS, new Date(now.getTime() - DUPLICATE_WINDOW_MS));
  return previous > 0;
}

const retirer = alias(staffUsers, "retirer");

/** The registry, newest first; with `upstreamId`, that one key (or nothing). Each key with its state (rules.ts). */
export async function listIntegrationKeys(db: Database, upstreamId?: number): Promise<IntegrationKeySummary[]> {
  const rows = await db
    .select({
      id: integrationKeys.id,
      upstreamId: integrationKeys.upstreamId,
      label: integrationKeys.label,
      domain: integrationKeys.domain,
      createdAt: integrationKeys.createdAt,
      upstreamCreatedAt: integrationKeys.upstreamCreatedAt,
      createdByEmail: staffUsers.email,
      retiredAt: integrationKeys.retiredAt,
      retiredByEmail: retirer.email,
      retireReason: integrationKeys.retireReason,
    })
    .from(integrationKeys)
    .leftJoin(staffUsers, eq(staffUsers.id, integrationKeys.createdBy))
    .leftJoin(retirer, eq(retirer.id, integrationKeys.retiredBy))
    .where(upstreamId === undefined ? undefined : eq(integrationKeys.upstreamId, upstreamId))
    .orderBy(desc(integrationKeys.createdAt))
    .limit(500);
  return rows.map((row) => {
    const retiredAt = row.retiredAt?.toISOString() ?? null;
    return {
      ...row,
      createdAt: row.createdAt.toISOString(),
      upstreamCreatedAt: row.upstreamCreatedAt?.toISOString() ?? null,
      state: integrationKeyStateOf({ retiredAt }),
      retiredAt,
    };
  });
}

function parseInstant(value: string | null): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A second creation of the same host and label within the window, without the admin's confirmation. */
export class PossibleDuplicateKeyError extends AppError implements AuditedFailure {
  readonly auditOutcome = "denied";
  readonly auditReason = "possible_duplicate";

  constructor() {
    super(
      "conflict",
      "A key with this domain and label was requested a moment ago and may already exist. Check the list of keys; send again only if it is not there.",
      { fields: ["confirmDuplicate"] },
    );
  }
}

/**
 * Creates a key through the partners API (its intent on the trail first: no intent, no key) and registers
 * its metadata. Refuses (409) a second creation of the same host and label within the window unless
 * `confirmDuplicate` says the admin was warned and chose to send again. Once the service has created the
 * key, nothing here may hide it: a failed registry write is logged and the key is still answered.
 */
export async function createIntegrationKey(
  db: Database,
  client: PartnersClient,
  context: RequestContext,
  { input, now = new Date() }: { input: CreateIntegrationInput; now?: Date },
): Promise<Integration> {
  const guardKey = duplicateKey(input);
  let confirmedDuplicate = false;
  const spec = {
    action: "integration.create",
    details: { label: auditableDetail(input.label), domain: auditableDetail(input.domain) },
    targetOf: (created: Integration) => ({ type: "integration", id: created.id === null ? "unknown" : String(created.id) }),
    detailsOf: () => ({ confirmedDuplicate }),
  };
  return auditedAction(context, spec, async () => {
    const duplicate = await isRecentDuplicate(db, guardKey, now);
    if (duplicate && !input.confirmDuplicate) throw new PossibleDuplicateKeyError();
    confirmedDuplicate = duplicate;
    let integration: Integration;
    try {
      integration = await client.createIntegration({ domain: input.domain, label: input.label });
    } catch (error) {
      // A definite refusal created nothing: a corrected retry of the same host and label needs no warning.
      if (!isOutcomeUnknown(error)) await clear(db, guardKey);
      throw error;
    }
    await registerKey(db, integration, context, now).catch((error: unknown) => log.error("integration_registry_failed", { error }));
    return integration;
  });
}

async function registerKey(db: Database, integration: Integration, context: RequestContext, now: Date): Promise<void> {
  if (integration.id === null || !context.actor) return;
  await db.insert(integrationKeys).values({
    upstreamId: integration.id,
    label: integration.label,
    domain: integration.domain,
    ownerUserId: integration.userId,
    ownerTenantId: integration.tenantId,
    upstreamCreatedAt: parseInstant(integration.createdAt),
    createdBy: context.actor.id,
    createdAt: now,
  });
}

/** A key asked for again after its reveal window: recorded as a denied reveal. */
export class KeyRevealGoneError extends AppError implements AuditedFailure {
  readonly auditOutcome = "denied";
  readonly auditReason = "reveal_window_passed";

  constructor() {
    super("not_found", "This key can no longer be shown: its reveal window has passed.");
  }
}

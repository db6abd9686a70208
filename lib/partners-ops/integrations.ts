import "server-only";

import { createHash } from "node:crypto";

import { desc, eq } from "drizzle-orm";

import { ApiError } from "@/lib/api/errors";
import { auditableDetail, record } from "@/lib/audit";
import type { Database } from "@/lib/db/client";
import { integrationKeys, staffUsers } from "@/lib/db/schema";
import type { Integration } from "@/lib/domain/partners";
import { clear, countInWindow, increment } from "@/lib/rate-limit";
import { isUpstreamError, type UpstreamError } from "@/lib/upstream/http";
import type { PartnersClient } from "@/lib/upstream/partners";
import { parseDomain, type CreateIntegrationInput, type IntegrationKeySummary } from "@/lib/validations/integrations";

import { recordFailure } from "./audit";

/*
 * Integration keys created from the dashboard. The service's own list route is not in the contract, so
 * the dashboard keeps a registry of the keys it created: metadata only. The key value (`uuid`) goes to
 * the admin once, in the creation answer, and into the sealed reveal cookie (reveal-cookie.ts); never
 * into this table, a log or the audit trail.
 */

export interface Actor {
  id: string;
  email: string;
}

/** A creation of the same host and label inside this window needs an explicit confirmation. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

/** Failures after which nobody knows whether the service created the key. */
export function isUnknownOutcome(error: UpstreamError): boolean {
  return error.kind === "timeout" || error.kind === "unavailable" || error.kind === "malformed";
}

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

export async function listIntegrationKeys(db: Database): Promise<IntegrationKeySummary[]> {
  const rows = await db
    .select({
      id: integrationKeys.id,
      upstreamId: integrationKeys.upstreamId,
      label: integrationKeys.label,
      domain: integrationKeys.domain,
      createdAt: integrationKeys.createdAt,
      upstreamCreatedAt: integrationKeys.upstreamCreatedAt,
      createdByEmail: staffUsers.email,
    })
    .from(integrationKeys)
    .leftJoin(staffUsers, eq(staffUsers.id, integrationKeys.createdBy))
    .orderBy(desc(integrationKeys.createdAt))
    .limit(500);
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    upstreamCreatedAt: row.upstreamCreatedAt?.toISOString() ?? null,
  }));
}

function parseInstant(value: string | null): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Creates a key through the partners API, registers its metadata and records the event, registry row
 * and audit event in one transaction. Refuses (409) a second creation of the same host and label within
 * the window unless `confirmDuplicate` says the admin was warned and chose to send again.
 */
export async function createIntegrationKey(
  db: Database,
  client: PartnersClient,
  { actor, ip, input, now = new Date() }: { actor: Actor; ip: string | null; input: CreateIntegrationInput; now?: Date },
): Promise<Integration> {
  const guardKey = duplicateKey(input);
  const duplicate = await isRecentDuplicate(db, guardKey, now);
  const label = auditableDetail(input.label);
  if (duplicate && !input.confirmDuplicate) {
    await recordFailure({
      actor,
      action: "integration.create",
      outcome: "denied",
      ip,
      details: { reason: "possible_duplicate", label },
    });
    throw new ApiError(
      "conflict",
      "A key with this domain and label was requested a moment ago and may already exist. Check the list of keys; send again only if it is not there.",
      { fields: ["confirmDuplicate"] },
    );
  }

  let integration: Integration;
  try {
    integration = await client.createIntegration({ domain: input.domain, label: input.label });
  } catch (error) {
    const unknown = isUpstreamError(error) && isUnknownOutcome(error);
    // A definite refusal created nothing: a corrected retry of the same host and label needs no warning.
    if (!unknown) await clear(db, guardKey);
    await recordFailure({
      actor,
      action: "integration.create",
      outcome: "failure",
      ip,
      details: { reason: isUpstreamError(error) ? error.kind : "error", outcomeUnknown: unknown, label },
    });
    throw error;
  }

  await db.transaction(async (tx) => {
    if (integration.id !== null) {
      await tx.insert(integrationKeys).values({
        upstreamId: integration.id,
        label: integration.label,
        domain: integration.domain,
        ownerUserId: integration.userId,
        ownerTenantId: integration.tenantId,
        upstreamCreatedAt: parseInstant(integration.createdAt),
        createdBy: actor.id,
        createdAt: now,
      });
    }
    await record(
      {
        actor,
        action: "integration.create",
        target: { type: "integration", id: integration.id === null ? "unknown" : String(integration.id) },
        outcome: "success",
        ip,
        details: {
          label: auditableDetail(integration.label),
          domain: auditableDetail(integration.domain),
          confirmedDuplicate: Boolean(input.confirmDuplicate && duplicate),
        },
      },
      tx,
    );
  });
  return integration;
}

/** Records that the admin revealed a key again from the sealed cookie (the value itself is not recorded). */
export async function recordKeyReveal(actor: Actor, ip: string | null, upstreamId: number, outcome: "success" | "denied"): Promise<void> {
  await record({
    actor,
    action: "integration.key_reveal",
    target: { type: "integration", id: String(upstreamId) },
    outcome,
    ip,
  });
}

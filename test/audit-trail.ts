import "server-only";

import { sql, type SQL } from "drizzle-orm";

import { type AuditOutcome } from "@/lib/audit-trail/outcomes";
import { appendChained as appendEvents } from "@/lib/audit-trail/server/group-commit";
import { chainSigner, cpfHash, maskCpf, type ChainedFields } from "@/lib/audit-trail/server/record";
import type { Database } from "@/lib/db/client";
import { mulberry32 } from "@/sandbox/fixtures/prng";

/*
 * Tests and the benchmark only: many properly chained events, fast: this appends whole batches of
 * generated events through the writer's own chained append (lib/audit-trail/server/group-commit.ts), under the
 * same advisory lock and with the same hash, so `verifyAuditChain` accepts them.
 */

/** A valid CPF from nine digits (the two check digits computed). */
export function cpfFromBase(base: number): string {
  const digits = String(base % 1_000_000_000).padStart(9, "0");
  const check = (partial: string) => {
    let sum = 0;
    for (let index = 0; index < partial.length; index += 1) sum += Number(partial[index]) * (partial.length + 1 - index);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const first = check(digits);
  return `${digits}${first}${check(`${digits}${first}`)}`;
}

export interface SyntheticOptions {
  count: number;
  seed?: number;
  /** Events are spread evenly from `start` over `spanDays`, oldest first. */
  start?: Date;
  spanDays?: number;
  actors?: number;
  cpfs?: number;
}

const ACTIONS: Array<[string, number, string | null]> = [
  // action, relative weight, target type
  ["verification.list", 30, null],
  ["verification.view", 25, "verification"],
  ["verification.media", 10, "verification"],
  ["verification.image", 12, "verification"],
  ["lookup.cpf", 8, "cpf"],
  ["kyc.session_create", 3, "cpf"],
  ["sms.send", 2, "phone"],
  ["auth.sign_in", 6, null],
  ["auth.sign_out", 2, null],
  ["integration.create", 0.2, "integration_key"],
  ["audit.view", 1, null],
  ["audit.export", 0.05, null],
  ["staff.invite", 0.05, "staff"],
];
const TOTAL_WEIGHT = ACTIONS.reduce((sum, [, weight]) => sum + weight, 0);

/** Realistic-looking events: a few dozen staff, skewed actions, mostly successes, CPFs masked and hashed. */
export function* syntheticEvents(options: SyntheticOptions): Generator<ChainedFields> {
  // Seeded (the sandbox's own PRNG), so a benchmark run can be repeated exactly.
  const random = mulberry32(options.seed ?? 42);
  const start = (options.start ?? new Date(Date.now() - 365 * 86_400_000)).getTime();
  const span = (options.spanDays ?? 365) * 86_400_000;
  const actors = Array.from({ length: options.actors ?? 40 }, (_, index) => ({
    id: `00000000-0000-4000-8000-${String(index + 1).padStart(12, "0")}`,
    email: `staff${index + 1}@example.com`,
  }));
  const cpfs = Array.from({ length: options.cpfs ?? 5000 }, (_, index) => cpfFromBase(100_000_000 + index * 7919));
  const hashes = new Map<string, string>();
  const step = span / Math.max(1, options.count);
  for (let index = 0; index < options.count; index += 1) {
    let pick = random() * TOTAL_WEIGHT;
    let chosen = ACTIONS[0]!;
    for (const entry of ACTIONS) {
      pick -= entry[1];
      if (pick <= 0) {
        chosen = entry;
        break;
      }
    }
    const [action, , targetType] = chosen;
    const actor = actors[Math.floor(random() ** 2 * actors.length)]!;
    const roll = random();
    const outcome: AuditOutcome = roll < 0.9 ? "success" : roll < 0.97 ? "failure" : "denied";
    let target: string | null = null;
    let targetHash: string | null = null;
    if (targetType === "cpf") {
      const cpf = cpfs[Math.floor(random() * cpfs.length)]!;
      target = maskCpf(cpf);
      targetHash = hashes.get(cpf) ?? cpfHash(cpf);
      hashes.set(cpf, targetHash);
    } else if (targetType) {
      target = `${targetType.slice(0, 3)}_${Math.floor(random() * 200_000)}`;
    }
    yield {
      at: new Date(Math.floor(start + index * step)),
      actorId: action === "auth.sign_in" && outcome === "failure" ? null : actor.id,
      actorEmail: actor.email,
      action,
      targetType,
      target,
      targetHash,
      purpose: targetType === "cpf" ? "customer onboarding" : null,
      outcome,
      ip: `10.${Math.floor(random() * 4)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`,
      details: action === "verification.list" ? { count: Math.floor(random() * 100) } : {},
    };
  }
}

/**
 * Appends events in multi-row inserts, chaining each to the one before exactly as `record()` does.
 * Returns the number written. `onBatch` reports progress.
 */
export async function appendChained(
  db: Database,
  events: Iterable<ChainedFields>,
  { batchSize = 2000, onBatch }: { batchSize?: number; onBatch?: (written: number) => void } = {},
): Promise<number> {
  let written = 0;
  let batch: ChainedFields[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    await appendEvents(db, rows, chainSigner());
    written += rows.length;
    onBatch?.(written);
  };
  for (const event of events) {
    batch.push(event);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return written;
}

/**
 * Runs statements the database refuses on the audit tables (UPDATE, DELETE: migration 0011_audit_append_only)
 * the way someone with superuser access to the database would have to: with triggers off for one transaction
 * (`session_replication_role = replica`). Tests that prove the verifier sees tampering use it.
 */
export async function tamper(db: Database, ...statements: SQL[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    for (const statement of statements) await tx.execute(statement);
  });
}

import "server-only";

import { and, asc, eq, isNull, sql } from "drizzle-orm";

import { config } from "@/lib/config";
import { DEFAULT_GRACE_HOURS, expiryOfDay, keyExpiry, keyHintOf } from "@/lib/connections/key-life";
import { connections, type ConnectionRow, type StoredCapabilities } from "@/lib/connections/server/tables";
import { CONNECTION_ID_PATTERN, PRIMARY_CONNECTION, type ConnectionSummary, type Environment } from "@/lib/connections/types";
import type { CreateConnectionInput, UpdateConnectionInput } from "@/lib/connections/validation";
import type { Database } from "@/lib/db/client";
import { openText, sealedTextKeyId, sealText } from "@/lib/keys/ring";
import { AppError } from "@/lib/shared/errors";
import { accountOfConfig, setDefaultAccount, type PartnersAccount, type UpstreamAccount } from "@/lib/upstream/account";

/*
 * The connections' store: rows in the database (every instance sees the same), their secrets sealed under the data
 * key ring, one purpose per secret so a sealed key copied into the partners column does not open. Reads go through
 * a short per-process cache (CACHE_MS): a change made on another instance is seen there within that time, and a
 * change made here at once. The environment's variables seed `primary` when it is missing; the sandbox's own keys
 * seed two more in embedded mode, so `npm run dev` shows its three datasets.
 */

const PURPOSES = { core: "connection-core-key", partners: "connection-partners-account" } as const;
const CACHE_MS = 5_000;

export interface Connection {
  id: string;
  name: string;
  environment: Environment;
  integration: string | null;
  retired: boolean;
  account: UpstreamAccount;
  row: ConnectionRow;
}

function ring() {
  return config().secrets.dataEncryption;
}

/** The key's hint and expiry columns (./key-life.ts): as stated (a day), else the documented default, else unknown. */
function keyColumns(key: string, statedDay: string | undefined, now: Date) {
  const life = keyExpiry(key, statedDay ? expiryOfDay(statedDay) : undefined, now);
  return { coreKeyHint: keyHintOf(key), coreKeyExpiresAt: life.expiresAt, coreKeyExpiryStated: life.stated };
}

/**
 * After a rotation the provider keeps the previous key valid through the grace period (24 h by default), never past
 * its own expiry: the dashboard remembers its hint and that end, to say when it stops working.
 */
function previousKeyColumns(current: ConnectionRow, graceHours: number | undefined, now: Date) {
  const grace = now.getTime() + (graceHours ?? DEFAULT_GRACE_HOURS) * 3_600_000;
  const until = current.coreKeyExpiresAt ? Math.min(grace, current.coreKeyExpiresAt.getTime()) : grace;
  return { previousKeyHint: current.coreKeyHint, previousKeyUntil: new Date(until) };
}

function openAccount(row: ConnectionRow): UpstreamAccount {
  const coreApiKey = openText(ring(), PURPOSES.core, row.coreKeySealed);
  if (coreApiKey === null) throw new Error(`connection ${row.id}: its key does not open under the data key ring`);
  const partnersText = row.partnersSealed === null ? null : openText(ring(), PURPOSES.partners, row.partnersSealed);
  if (row.partnersSealed !== null && partnersText === null) throw new Error(`connection ${row.id}: its partners account does not open`);
  return {
    id: row.id,
    version: row.version,
    coreApiKey,
    partners: partnersText === null ? null : (JSON.parse(partnersText) as PartnersAccount),
  };
}

/**
 * A row's connection with its secrets opened once: the cached rows (allConnectionRows) are read anew at most every
 * CACHE_MS, and each new row object opens again, so a changed key is used as soon as the row that holds it is read.
 */
const opened = new WeakMap<ConnectionRow, Connection>();

function connectionOf(row: ConnectionRow): Connection {
  let connection = opened.get(row);
  if (!connection) {
    connection = Object.freeze({
      id: row.id,
      name: row.name,
      environment: row.environment,
      integration: row.integration,
      retired: row.retiredAt !== null,
      account: Object.freeze(openAccount(row)),
      row,
    });
    opened.set(row, connection);
  }
  return connection;
}

export function summaryOf(row: ConnectionRow, currentId: string | null): ConnectionSummary {
  const capabilities: StoredCapabilities = row.capabilities ?? { read: null, media: null, unmasked: null };
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    integration: row.integration,
    keyHint: row.coreKeyHint,
    flows: row.flows,
    defaultFlow: row.flows[0]?.id ?? null,
    partners: row.partnersSealed !== null,
    capabilities: { read: capabilities.read, media: capabilities.media, unmasked: capabilities.unmasked },
    testedAt: row.testedAt?.toISOString() ?? null,
    problem: capabilities.problem ?? null,
    keyExpiresAt: row.coreKeyExpiresAt?.toISOString() ?? null,
    keyExpiryStated: row.coreKeyExpiryStated,
    previousKey:
      row.previousKeyHint && row.previousKeyUntil ? { hint: row.previousKeyHint, until: row.previousKeyUntil.toISOString() } : null,
    retiredAt: row.retiredAt?.toISOString() ?? null,
    current: row.id === currentId,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding

interface Seed {
  id: string;
  name: string;
  environment: Environment;
  integration: string | null;
  coreApiKey: string;
  partners: PartnersAccount | null;
  seededFrom: "environment" | "sandbox";
  position: number;
}

/** What the start-up variables (and, in embedded mode, the sandbox's own keys) seed. */
function seeds(): Seed[] {
  const cfg = config();
  const fromVariables = accountOfConfig(cfg);
  const embedded = cfg.mode === "embedded";
  const primary: Seed = {
    id: PRIMARY_CONNECTION,
    name: embedded ? "Sandbox" : cfg.core.connectionName,
    environment: embedded ? "sandbox" : cfg.core.environment,
    integration: embedded ? "int_main" : null,
    coreApiKey: fromVariables.coreApiKey,
    partners: fromVariables.partners,
    seededFrom: "environment",
    position: 0,
  };
  if (!embedded) return [primary];
  // The sandbox's datasets (sandbox/api-keys.ts): the same integration's production, and another integration.
  return [
    primary,
    {
      ...primary,
      id: "production",
      name: "Produção (sandbox)",
      environment: "production",
      coreApiKey: "sbx_core_production",
      partners: null,
      seededFrom: "sandbox",
      position: 1,
    },
    {
      ...primary,
      id: "other-integration",
      name: "Outra integração (sandbox)",
      integration: "int_other",
      coreApiKey: "sbx_core_other_integration",
      partners: null,
      seededFrom: "sandbox",
      position: 2,
    },
  ];
}

function rowOfSeed(seed: Seed) {
  return {
    id: seed.id,
    name: seed.name,
    environment: seed.environment,
    integration: seed.integration,
    coreKeySealed: sealText(ring(), PURPOSES.core, seed.coreApiKey),
    ...keyColumns(seed.coreApiKey, undefined, new Date()),
    partnersSealed: seed.partners ? sealText(ring(), PURPOSES.partners, JSON.stringify(seed.partners)) : null,
    seededFrom: seed.seededFrom,
    position: seed.position,
  };
}

/**
 * Adds each seed whose id is missing; never changes a row that exists, so a key rotated in the dashboard is not
 * put back by the variables at the next start. Idempotent and safe on several instances at once.
 */
export async function seedConnections(db: Database): Promise<void> {
  for (const seed of seeds()) {
    await db.insert(connections).values(rowOfSeed(seed)).onConflictDoNothing({ target: connections.id });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

// Per database handle (a process has one; tests open several), on globalThis: Next evaluates each route's and page's
// bundle separately, and a change made through the API must be seen at once by the pages of the same process.
const slot = globalThis as typeof globalThis & { __kycConnections?: WeakMap<Database, { at: number; rows: ConnectionRow[] }> };
const caches = (slot.__kycConnections ??= new WeakMap());

/** Every connection, retired ones included, in the order admins set; seeded on the first read of each handle. */
export async function allConnectionRows(db: Database, now = Date.now()): Promise<ConnectionRow[]> {
  const cached = caches.get(db);
  if (cached && now - cached.at < CACHE_MS) return cached.rows;
  if (!cached) await seedConnections(db);
  let rows = await db.select().from(connections).orderBy(asc(connections.position), asc(connections.createdAt));
  if (await resealStale(db, rows))
    rows = await db.select().from(connections).orderBy(asc(connections.position), asc(connections.createdAt));
  caches.set(db, { at: now, rows });
  const fallback = defaultRow(rows);
  if (fallback) setDefaultAccount(openAccount(fallback));
  return rows;
}

/**
 * After the data ring's rotation, brings each connection's secrets under its current key (compare-and-set on the old
 * envelope, so two instances doing it at once write once), so the old key can leave the ring as soon as every
 * instance has read the connections once under the new ring (docs/operations.md, "Rotating the data key"). A secret
 * that does not open is left for the admin to replace.
 */
async function resealStale(db: Database, rows: ConnectionRow[]): Promise<boolean> {
  const current = ring().current.id;
  let changed = false;
  for (const row of rows) {
    const stale = [row.coreKeySealed, row.partnersSealed].some((value) => value !== null && sealedTextKeyId(value) !== current);
    if (!stale) continue;
    const core = openText(ring(), PURPOSES.core, row.coreKeySealed);
    const partners = row.partnersSealed === null ? null : openText(ring(), PURPOSES.partners, row.partnersSealed);
    if (core === null || (row.partnersSealed !== null && partners === null)) continue;
    const updated = await db
      .update(connections)
      .set({
        coreKeySealed: sealText(ring(), PURPOSES.core, core),
        partnersSealed: partners === null ? null : sealText(ring(), PURPOSES.partners, partners),
      })
      .where(and(eq(connections.id, row.id), eq(connections.coreKeySealed, row.coreKeySealed)))
      .returning({ id: connections.id });
    changed ||= updated.length > 0;
  }
  return changed;
}

function forget(db: Database): void {
  const cached = caches.get(db);
  if (cached) caches.set(db, { ...cached, at: 0 });
}

function defaultRow(rows: ConnectionRow[]): ConnectionRow | undefined {
  const live = rows.filter((row) => row.retiredAt === null);
  return live.find((row) => row.id === PRIMARY_CONNECTION) ?? live[0];
}

/** The live connection `id`, or a 404 that names nothing else. */
export async function liveConnection(db: Database, id: string): Promise<Connection> {
  const row = CONNECTION_ID_PATTERN.test(id) ? (await allConnectionRows(db)).find((candidate) => candidate.id === id) : undefined;
  if (!row || row.retiredAt !== null) throw new AppError("not_found", "No such connection.", { fields: ["connection"] });
  return connectionOf(row);
}

/** Every live connection, in the order admins set: the jobs that read the service (the case sync) run once per each. */
export async function liveConnections(db: Database): Promise<Connection[]> {
  return (await allConnectionRows(db)).filter((row) => row.retiredAt === null).map(connectionOf);
}

/** The connection work that names none speaks as: `primary`, or the first live one when it was retired. */
export async function defaultConnection(db: Database): Promise<Connection> {
  const row = defaultRow(await allConnectionRows(db));
  if (!row) throw new AppError("conflict", "No connection is live: an administrator adds one on the connections page.");
  return connectionOf(row);
}

// ---------------------------------------------------------------------------------------------------------------
// Writing (the admin routes call these inside their audited actions)

function idFromName(name: string): string {
  const slug = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 32);
  return slug || "connection";
}

async function freeId(db: Database, wanted: string): Promise<string> {
  const taken = new Set((await db.select({ id: connections.id }).from(connections)).map((row) => row.id));
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n += 1) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

async function nameTaken(db: Database, name: string, except?: string): Promise<boolean> {
  const rows = await db
    .select({ id: connections.id })
    .from(connections)
    .where(and(isNull(connections.retiredAt), sql`lower(${connections.name}) = lower(${name})`));
  return rows.some((row) => row.id !== except);
}

function nameConflict(): AppError {
  return new AppError("conflict", "Another live connection has this name.", { fields: ["name"] });
}

export async function insertConnection(
  db: Database,
  input: CreateConnectionInput,
  capabilities: StoredCapabilities | null,
): Promise<ConnectionRow> {
  if (input.id && (await db.select({ id: connections.id }).from(connections).where(eq(connections.id, input.id))).length > 0) {
    throw new AppError("conflict", "A connection with this id exists (ids are never reused).", { fields: ["id"] });
  }
  if (await nameTaken(db, input.name)) throw nameConflict();
  const id = input.id ?? (await freeId(db, idFromName(input.name)));
  const [position] = await db.select({ max: sql<number>`coalesce(max(${connections.position}), 0)` }).from(connections);
  const [row] = await db
    .insert(connections)
    .values({
      id,
      name: input.name,
      environment: input.environment,
      integration: input.integration ?? capabilities?.reportedIntegration ?? null,
      coreKeySealed: sealText(ring(), PURPOSES.core, input.coreApiKey),
      ...keyColumns(input.coreApiKey, input.coreKeyExpiresAt, new Date()),
      flows: input.flows ?? [],
      partnersSealed: input.partners ? sealText(ring(), PURPOSES.partners, JSON.stringify(input.partners)) : null,
      capabilities,
      testedAt: capabilities ? new Date() : null,
      position: Number(position?.max ?? 0) + 1,
    })
    .returning();
  forget(db);
  return row!;
}

/** Applies one admin change; a new key or partners account bumps the version, so every instance builds new clients. */
export async function updateConnection(
  db: Database,
  id: string,
  input: UpdateConnectionInput,
  capabilities: StoredCapabilities | null,
): Promise<ConnectionRow> {
  const current = await liveConnection(db, id);
  if (input.name && (await nameTaken(db, input.name, id))) throw nameConflict();
  const secretChanged = input.coreApiKey !== undefined || input.partners !== undefined;
  const now = new Date();
  const [row] = await db
    .update(connections)
    .set({
      ...(input.name ? { name: input.name } : {}),
      ...(input.coreApiKey
        ? {
            coreKeySealed: sealText(ring(), PURPOSES.core, input.coreApiKey),
            ...keyColumns(input.coreApiKey, input.coreKeyExpiresAt, now),
            ...previousKeyColumns(current.row, input.graceHours, now),
            capabilities,
            testedAt: now,
          }
        : input.coreKeyExpiresAt
          ? { coreKeyExpiresAt: expiryOfDay(input.coreKeyExpiresAt), coreKeyExpiryStated: true }
          : {}),
      ...(input.flows ? { flows: input.flows } : {}),
      ...(input.partners !== undefined
        ? { partnersSealed: input.partners ? sealText(ring(), PURPOSES.partners, JSON.stringify(input.partners)) : null }
        : {}),
      ...(input.retire ? { retiredAt: new Date() } : {}),
      ...(secretChanged ? { version: current.row.version + 1 } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(connections.id, id), isNull(connections.retiredAt)))
    .returning();
  forget(db);
  if (!row) throw new AppError("not_found", "No such connection.", { fields: ["connection"] });
  return row;
}

/** Records what a test found. */
export async function recordTest(db: Database, id: string, capabilities: StoredCapabilities): Promise<ConnectionRow> {
  const [row] = await db.update(connections).set({ capabilities, testedAt: new Date() }).where(eq(connections.id, id)).returning();
  forget(db);
  if (!row) throw new AppError("not_found", "No such connection.", { fields: ["connection"] });
  return row;
}

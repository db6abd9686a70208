import "server-only";

import fs from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";

import { config } from "@/lib/config";

import { pgliteChangeFeed, postgresChangeFeed, type ChangeFeed, type ChangeFeedHandlers } from "./change-feed";
import { embeddedDirectory, snapshotOpenDatabase, type EmbeddedSnapshot } from "./embedded-snapshot";
import { timePglite, timePool } from "./timing";

/*
 * One database handle per process: PGlite in `<DATA_DIR>/pglite` when DATABASE_URL is unset,
 * PostgreSQL through a node-postgres pool when it is set. Migrations (lib/db/migrations) are applied
 * on first use. Seeding the demo accounts is not this module's business (lib/auth/server/seed.ts imports the audit
 * writer, which imports this client): the server start (instrumentation.ts) and `npm run db:migrate` seed.
 */

// No schema object: every query names its tables (each feature's `server/tables.ts`), and the relational
// query API, the only thing that needs them all here, is not used. So this layer imports no feature.
/** What every query function takes: the process database or a transaction inside it. */
export type Database = PgDatabase<PgQueryResultHKT>;

/**
 * The rows a raw query answers. Both drivers answer `{ rows }`; an array is taken as the rows themselves (a
 * driver that answers one), so no caller needs to know which driver it runs on.
 */
export async function queryRows<T extends Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}

export interface DatabaseHandle {
  db: Database;
  driver: "pglite" | "postgres";
  /** Listens to a notification channel (lib/db/change-feed.ts); closed with the handle. */
  changeFeed(channel: string, handlers: ChangeFeedHandlers): ChangeFeed;
  /** PGlite only: a consistent copy of the whole database, taken from this open instance (lib/db/embedded-snapshot.ts). */
  snapshot?(): Promise<EmbeddedSnapshot>;
  close(): Promise<void>;
}

/** Feeds opened on a handle end when the handle closes, so no listener outlives its database. */
function withFeeds(open: (channel: string, handlers: ChangeFeedHandlers) => ChangeFeed, closeDatabase: () => Promise<void>) {
  const feeds = new Set<ChangeFeed>();
  return {
    changeFeed(channel: string, handlers: ChangeFeedHandlers): ChangeFeed {
      const feed = open(channel, handlers);
      feeds.add(feed);
      return feed;
    },
    async close() {
      await Promise.all([...feeds].map((feed) => feed.close()));
      feeds.clear();
      await closeDatabase();
    },
  };
}

// Resolved from the working directory: Next bundles server code into .next/, so a path relative to
// this file would point into the build output. `next start`, scripts and Vitest all run from the root.
export const MIGRATIONS_FOLDER = path.join(process.cwd(), "lib/db/migrations");

/** How many migrations this code ships (drizzle's journal): a database that holds more was made by a newer version. */
export function shippedMigrations(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
  return journal.entries.length;
}

// Arbitrary constant: serialises migrations when several instances start against one PostgreSQL.
const MIGRATION_LOCK_KEY = 724_190_001;

export type DatabaseSource = { pglite: PGlite } | { url: string };

/**
 * Opens a database and applies the migrations. The app uses `getDb()`; tests and scripts call this with
 * an explicit PGlite instance (e.g. `new PGlite()` in memory) or a connection string.
 */
export async function createDatabase(source: DatabaseSource): Promise<DatabaseHandle> {
  if ("pglite" in source) {
    const client = source.pglite;
    const db = drizzlePglite(client);
    // PGlite is a single connection inside this process: nothing else can race the migration.
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    timePglite(client);
    return {
      db: db as unknown as Database,
      driver: "pglite",
      snapshot: () => snapshotOpenDatabase(client),
      ...withFeeds(
        (channel, handlers) => pgliteChangeFeed(client, channel, handlers),
        () => client.close(),
      ),
    };
  }
  await migratePostgres(source.url);
  const pool = new pg.Pool({ connectionString: source.url, application_name: "kyc-backoffice", max: 10 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", (error) => console.error("database pool error:", error.message));
  timePool(pool);
  const db = drizzlePg(pool);
  return {
    db: db as unknown as Database,
    driver: "postgres",
    ...withFeeds(
      (channel, handlers) => postgresChangeFeed(source.url, channel, handlers),
      () => pool.end(),
    ),
  };
}

async function migratePostgres(url: string): Promise<void> {
  // A dedicated connection holds a session-level advisory lock for the whole run, so instances
  // starting together apply each migration once.
  const client = new pg.Client({ connectionString: url, application_name: "kyc-backoffice-migrate" });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

/**
 * The embedded database lives in the Next server's own memory: PostgreSQL's server default of 128 MB of
 * shared buffers is sized for a machine of its own, while the embedded database of one dashboard holds a
 * few megabytes of staff, sessions, cases and audit events. 16 MB keeps its working set cached and the
 * server about 120 MB smaller under load.
 */
const EMBEDDED_POSTGRES_SETTINGS = ["shared_buffers = 16MB"];

/** The configured source: PostgreSQL when DATABASE_URL is set, else PGlite in the data folder. */
export function configuredSource(): DatabaseSource {
  const { url, dataDir } = config().database;
  if (url) return { url };
  const directory = embeddedDirectory(dataDir);
  fs.mkdirSync(directory, { recursive: true });
  return { pglite: new PGlite(directory, { postgresqlconf: EMBEDDED_POSTGRES_SETTINGS }) };
}

// On globalThis (`__kycDatabase`) so Next's dev reloads (which re-evaluate modules) reuse the open database
// instead of opening the PGlite directory a second time, which it does not allow. The slot is the process
// database: whoever opens the process's database some other way may place its handle there (test support
// does, test/db.ts), and `getDb()` answers with it.
const globalForDb = globalThis as typeof globalThis & { __kycDatabase?: Promise<DatabaseHandle> };

/** The process database, opened and migrated on first use. */
export async function getDb(): Promise<Database> {
  return (await getDatabaseHandle()).db;
}

export function getDatabaseHandle(): Promise<DatabaseHandle> {
  globalForDb.__kycDatabase ??= openConfiguredDatabase().catch((error: unknown) => {
    // Forget the failure so the next request tries again (e.g. PostgreSQL was still starting).
    globalForDb.__kycDatabase = undefined;
    throw error;
  });
  return globalForDb.__kycDatabase;
}

/** Opens the configured database and applies the migrations. */
export function openConfiguredDatabase(): Promise<DatabaseHandle> {
  return createDatabase(configuredSource());
}

import "server-only";

import fs from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";

/*
 * The embedded database (PGlite) copied whole, for backups (lib/backup): its data folder as one gzipped tarball
 * (PGlite's dumpDataDir) with the count of migrations applied in it, taken from an open instance or from a stopped
 * folder, and loaded back into an empty folder. PGlite admits one process per folder, so a running server copies
 * its own instance (lib/backup/server/socket.ts) and nobody else opens the folder meanwhile.
 */

export interface EmbeddedSnapshot {
  /** Migrations applied in the copied database (drizzle's table), to compare with the code that restores it. */
  migrations: number;
  /** The data folder, a gzipped tarball. */
  tarball: Blob;
}

/** The embedded database's folder inside DATA_DIR. */
export function embeddedDirectory(dataDir: string): string {
  return path.resolve(dataDir, "pglite");
}

/** Whether the folder holds a database (PGlite would create one in any other folder it opens). */
export function holdsEmbeddedDatabase(directory: string): boolean {
  return fs.existsSync(path.join(directory, "PG_VERSION"));
}

async function appliedMigrations(client: PGlite): Promise<number> {
  const [table] = (await client.query<{ present: boolean }>("select to_regclass('drizzle.__drizzle_migrations') is not null as present"))
    .rows;
  if (!table?.present) return 0;
  const [row] = (await client.query<{ count: number }>("select count(*)::int as count from drizzle.__drizzle_migrations")).rows;
  return row?.count ?? 0;
}

/**
 * A consistent copy of an open instance. Taken under PGlite's transaction lock (underscored, but in its published
 * types): the copy waits for a transaction under way to end, and no query runs while it is taken, so it is the
 * database between two transactions (what PostgreSQL finds after a crash there, replayed from its log on load).
 */
export async function snapshotOpenDatabase(client: PGlite): Promise<EmbeddedSnapshot> {
  const migrations = await appliedMigrations(client);
  const tarball = await client._runExclusiveTransaction(() => client.dumpDataDir("gzip"));
  return { migrations, tarball };
}

/** A copy of a stopped database's folder: opened without migrating it (a backup changes nothing), copied, closed. */
export async function snapshotStoppedDatabase(directory: string): Promise<EmbeddedSnapshot> {
  const client = new PGlite(directory);
  try {
    return await snapshotOpenDatabase(client);
  } finally {
    await client.close();
  }
}

/** Loads a copy into a folder that holds no database, opens it once (so it is known to start) and answers its migrations. */
export async function loadSnapshot(directory: string, tarball: Blob): Promise<number> {
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  const client = new PGlite(directory, { loadDataDir: tarball });
  try {
    return await appliedMigrations(client);
  } finally {
    await client.close();
  }
}

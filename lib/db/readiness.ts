import "server-only";

import fs from "node:fs";
import path from "node:path";

import { sql } from "drizzle-orm";

import { getDb, MIGRATIONS_FOLDER, queryRows } from "./client";

/** `run`, refused with a TimeoutError after `timeoutMs`, so a probe answers quickly. */
async function withTimeout<T>(run: () => Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("timeout"), { name: "TimeoutError" })), timeoutMs);
  });
  try {
    return await Promise.race([run(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The database's readiness probe (GET /api/health?ready): opens the process database if it is not yet open and
 * runs `select 1`.
 */
export async function pingDatabase(timeoutMs: number): Promise<void> {
  await withTimeout(async () => (await getDb()).execute(sql`select 1`), timeoutMs);
}

let shipped: number | undefined;

/** The newest migration this release ships, read from its journal once (it does not change while the process runs). */
function newestShipped(): number {
  if (shipped === undefined) {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as {
      entries: Array<{ when: number }>;
    };
    shipped = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return shipped;
}

/**
 * Whether the database has every migration this release ships (readiness's `migrations` check): the newest applied
 * (drizzle's `__drizzle_migrations`, by its folder time) against the newest in lib/db/migrations/meta/_journal.json.
 * A database ahead of this release is fine (migrations are additive, docs/operations.md "Rolling deploys"); one behind
 * means this instance's code expects columns that are not there.
 */
export async function migrationsApplied(timeoutMs: number): Promise<boolean> {
  const newest = newestShipped();
  const [row] = await withTimeout(
    async () => queryRows(await getDb(), sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`),
    timeoutMs,
  );
  return Number(row?.last ?? 0) >= newest;
}

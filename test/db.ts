import "server-only";

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, vi } from "vitest";

import { createDatabase, type DatabaseHandle } from "@/lib/db/client";
import { setLogSink } from "@/lib/log";
import { stubConfigEnv } from "@/test/config";
import { lateBound } from "@/test/late-bound";

/*
 * Test helpers. The database layer runs on PGlite always and on PostgreSQL when TEST_DATABASE_URL is
 * set, with the same assertions:
 *
 *   describeEachDatabase("… on $name", ({ open }) => { … })
 *
 * Without TEST_DATABASE_URL the PostgreSQL suite is still declared, skipped, under a name that says why
 * ("… on postgres (skipped: TEST_DATABASE_URL unset)"), so the run's report counts what did not run.
 *
 * Each PostgreSQL run gets a fresh database (created and dropped here), so parallel runs never meet.
 * A fresh schema would not do: drizzle-kit writes foreign keys as "public"."table".
 */

export interface TestDatabase extends DatabaseHandle {
  /** Closes the handle and, on PostgreSQL, drops the database. */
  dispose(): Promise<void>;
  /** PostgreSQL only: the test database's address, so a test can open a second, independent connection. */
  url?: string;
}

export interface TestDatabaseKind {
  name: "pglite" | "postgres";
  open(): Promise<TestDatabase>;
}

/** The databases this run can open: PGlite, and PostgreSQL when TEST_DATABASE_URL is set. */
export function testDatabases(): TestDatabaseKind[] {
  const kinds: TestDatabaseKind[] = [{ name: "pglite", open: openPglite }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) kinds.push({ name: "postgres", open: () => openPostgres(url) });
  return kinds;
}

/** Part of the skipped suites' names; scripts/test.mjs counts the tests under it. */
export const POSTGRES_SKIP_REASON = "skipped: TEST_DATABASE_URL unset";

/**
 * One suite per database, `$name` in the title standing for the database's name. PostgreSQL without
 * TEST_DATABASE_URL is declared skipped (its tests listed, none run), never silently left out.
 */
export function describeEachDatabase(title: string, body: (kind: TestDatabaseKind) => void): void {
  const named = (name: string) => title.replaceAll("$name", name);
  for (const kind of testDatabases()) describe(named(kind.name), () => body(kind));
  if (!process.env.TEST_DATABASE_URL) {
    const unavailable: TestDatabaseKind = {
      name: "postgres",
      open: () => Promise.reject(new Error("TEST_DATABASE_URL is unset: the PostgreSQL suites are skipped")),
    };
    describe.skip(named(`postgres (${POSTGRES_SKIP_REASON})`), () => body(unavailable));
  }
}

async function openPglite(): Promise<TestDatabase> {
  const handle = await createDatabase({ pglite: new PGlite() });
  return { ...handle, dispose: () => handle.close() };
}

async function openPostgres(adminUrl: string): Promise<TestDatabase> {
  const name = `kyc_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await createDatabase({ url: url.toString() });
  return {
    ...handle,
    url: url.toString(),
    async dispose() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        // pool.end() resolves before the server has seen every connection close; dropping earlier
        // would kill them and make the closed pool report errors.
        for (let attempt = 0; attempt < 40; attempt += 1) {
          const { rows } = await cleanup.query("select count(*)::int as open from pg_stat_activity where datname = $1", [name]);
          if (rows[0]?.open === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

export const TEST_SECRETS = {
  NEXTAUTH_SECRET: "test-nextauth-secret-0123456789abcdef",
  MEDIA_SEAL_SECRET: "test-media-seal-secret-0123456789abcdef",
  AUDIT_HASH_SECRET: "test-audit-hash-secret-0123456789abcdef",
  DATA_ENCRYPTION_SECRET: "test-data-encryption-secret-0123456789abcdef",
} as const;

/**
 * Embedded-mode configuration with fixed secrets and a throwaway data folder (so tests never write
 * into the real .data/). Call in beforeAll/beforeEach; `restoreConfigEnv()` (test/config.ts) undoes it.
 */
export function stubTestEnvironment(extra: Record<string, string> = {}): void {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-test-"));
  // The audit head's copy inside the test's folder: by default it sits beside the data folder (or, with DATABASE_URL,
  // under the home folder's state) and would outlive the test.
  stubConfigEnv({
    ...TEST_SECRETS,
    DATA_DIR: dataDir,
    AUDIT_HEAD_FILE: path.join(dataDir, "audit-head.json"),
    CORE_URL: "",
    PARTNERS_URL: "",
    DATABASE_URL: "",
    ...extra,
  });
}

// lib/db/client.ts keeps the process database in this process-wide slot; `getDb()` answers with what it holds.
const processDatabase = globalThis as typeof globalThis & { __kycDatabase?: Promise<DatabaseHandle> };

/**
 * Makes `getDb()` (what route handlers and pages use) answer with this handle; undefined empties the slot,
 * and the next `getDb()` opens the configured database. Closing the handle stays the caller's business.
 */
export function setProcessDatabase(handle: DatabaseHandle | undefined): void {
  processDatabase.__kycDatabase = handle ? Promise.resolve(handle) : undefined;
}

/**
 * Registers the test configuration for the file (or, called inside a describe, for that suite): stubTestEnvironment(env)
 * before its tests and vi.unstubAllEnvs() after them. `quiet` also keeps the log's lines out of the run meanwhile.
 */
export function withTestEnvironment(env: Record<string, string> = {}, { quiet = false }: { quiet?: boolean } = {}): void {
  beforeAll(() => {
    stubTestEnvironment(env);
    if (quiet) setLogSink(() => undefined);
  });
  afterAll(() => {
    if (quiet) setLogSink(undefined);
    vi.unstubAllEnvs();
  });
}

/**
 * Inside a describeEachDatabase body (or a describe within it): opens a database of the suite's kind before its tests
 * and disposes of it after them; with `asProcessDatabase`, it is also the process database meanwhile (what handlers and
 * pages reach through getDb()). The answer stands for the open database from that beforeAll on (see lateBound).
 */
export function withDatabase(
  open: TestDatabaseKind["open"],
  { asProcessDatabase = false }: { asProcessDatabase?: boolean } = {},
): TestDatabase {
  let handle: TestDatabase | undefined;
  beforeAll(async () => {
    handle = await open();
    if (asProcessDatabase) setProcessDatabase(handle);
  });
  afterAll(async () => {
    if (asProcessDatabase) setProcessDatabase(undefined);
    await handle?.dispose();
    handle = undefined;
  });
  return lateBound(() => handle, "the suite's database");
}

/** withDatabase, the suite's database being the process database (getDb()'s) meanwhile. */
export function withProcessDatabase(open: TestDatabaseKind["open"]): TestDatabase {
  return withDatabase(open, { asProcessDatabase: true });
}

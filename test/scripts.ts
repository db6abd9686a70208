import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { onTestFinished } from "vitest";

import { createDatabase, type DatabaseHandle } from "@/lib/db/client";
import { blankAppEnv } from "@/scripts/app-env.mjs";
import { TEST_SECRETS } from "@/test/db";

/*
 * The command-line scripts as an operator runs them (`npm run …`), for their tests (scripts/*.test.ts): a run
 * with the host's configuration blanked, and a database of the running test's own (an empty PGlite data folder,
 * or a fresh PostgreSQL database when TEST_DATABASE_URL is set), removed when the test ends.
 */

const ROOT = path.resolve(import.meta.dirname, "..");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run <script> -- <args>` with the host's configuration blanked, then `env`. */
export function npmRun(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn("npm", ["run", "--silent", script, ...(args.length ? ["--", ...args] : [])], {
    cwd: ROOT,
    env: { ...process.env, ...blankAppEnv(), ...TEST_SECRETS, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A throwaway folder, removed when the running test ends. */
export function tempFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-cli-"));
  onTestFinished(() => fs.rmSync(folder, { recursive: true, force: true }));
  return folder;
}

export interface Target {
  /**
   * What the scripts are given: the data folder, DATABASE_URL on PostgreSQL, and the audit head's copy inside the
   * test's folder (by default it sits beside the data folder or under the home folder's state, outliving the test).
   */
  env: Record<string, string>;
  /** Opens the database in this process (never while a script has it open: PGlite allows one process). */
  open(): Promise<DatabaseHandle>;
  /** Rows of one query, on a connection opened and closed around it (no migration applied). */
  query<T>(text: string): Promise<T[]>;
}

// PGlite takes seconds to create its files and apply the migrations: the tests that do not check
// db:migrate start from a copy of one database migrated here once (and nothing else: no account, no event).
let migratedPglite: Promise<string> | undefined;
function migratedPgliteTemplate(): Promise<string> {
  migratedPglite ??= (async () => {
    const directory = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kyc-cli-template-")), "pglite");
    const handle = await createDatabase({ pglite: new PGlite(directory) });
    await handle.close();
    return directory;
  })();
  return migratedPglite;
}

/** Removes the migrated template, if one was made (in the test file's afterAll). */
export async function removeTemplates(): Promise<void> {
  if (migratedPglite) fs.rmSync(path.dirname(await migratedPglite), { recursive: true, force: true });
}

/**
 * A database of the running test's own, dropped (or deleted) when it ends: empty, or with the schema
 * already migrated (on PostgreSQL the scripts migrate an empty database quickly, so it is always empty).
 */
export async function freshTarget(kind: "pglite" | "postgres", { migrated = false } = {}): Promise<Target> {
  const dataDir = tempFolder();
  if (kind === "pglite") {
    const directory = path.join(dataDir, "pglite");
    if (migrated) fs.cpSync(await migratedPgliteTemplate(), directory, { recursive: true });
    return {
      env: { DATA_DIR: dataDir, AUDIT_HEAD_FILE: path.join(dataDir, "audit-head.json") },
      open: () => createDatabase({ pglite: new PGlite(directory) }),
      async query<T>(text: string) {
        const client = new PGlite(directory);
        try {
          return (await client.query<T>(text)).rows;
        } finally {
          await client.close();
        }
      },
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `kyc_cli_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`).finally(() => admin.end());
  onTestFinished(async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`).finally(() => cleanup.end());
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString(), AUDIT_HEAD_FILE: path.join(dataDir, "audit-head.json") },
    open: () => createDatabase({ url: url.toString() }),
    async query<T>(text: string) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query(text)).rows as T[];
      } finally {
        await client.end();
      }
    },
  };
}

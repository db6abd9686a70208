import "server-only";

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, vi } from "vitest";

import { setLogSink } from "@/lib/log";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { setProcessDatabase, stubTestEnvironment, testDatabases, type TestDatabase, type TestDatabaseKind } from "@/test/db";
import { lateBound } from "@/test/late-bound";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

/*
 * Route-handler test harness for the partners operations: a real sandbox process on a random port, a
 * fresh PGlite database, embedded configuration pointing at both, and real signed session cookies for
 * an analyst and an admin. Handlers are then called directly with a Request.
 */

export interface PartnersHarness {
  sandbox: SandboxHandle;
  db: TestDatabase;
  analystCookie: string;
  adminCookie: string;
  analystId: string;
  adminId: string;
  logLines: string[];
  request(url: string, init?: { method?: string; cookie?: string; body?: unknown; headers?: Record<string, string> }): Request;
  /** Every text value of every table, as one string per row (for "never stored" checks). */
  allText(): Promise<string>;
  dispose(): Promise<void>;
}

/**
 * `kind` picks the database (describeEachDatabase's); PGlite by default. `shared` is a sandbox kept for the whole
 * file (the core client is built once per process, on the first sandbox's address), left running at dispose.
 */
export async function startPartnersHarness(
  env: Record<string, string> = {},
  kind?: TestDatabaseKind,
  shared?: SandboxHandle,
): Promise<PartnersHarness> {
  const logLines: string[] = [];
  setLogSink((_level, line) => logLines.push(line));
  const sandbox = shared ?? (await startSandbox());
  stubTestEnvironment({ SANDBOX_URL: sandbox.url, UPSTREAM_READ_RETRIES: "0", ...env });
  const db = await (kind ?? testDatabases()[0]!).open();
  setProcessDatabase(db);
  const analyst = await createTestStaff(db.db, { role: "analyst" });
  const admin = await createTestStaff(db.db, { role: "admin" });
  return {
    sandbox,
    db,
    analystCookie: await sessionCookieFor(db.db, analyst),
    adminCookie: await sessionCookieFor(db.db, admin),
    analystId: analyst.id,
    adminId: admin.id,
    logLines,
    request: (url, init = {}) => apiRequest(url, init),
    async allText() {
      const tables = rowsOf<{ table_name: string }>(
        await db.db.execute(
          sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
        ),
      );
      const dumps: string[] = [];
      for (const { table_name } of tables) {
        const lines = rowsOf<{ line: string }>(await db.db.execute(sql.raw(`select row_to_json(t)::text as line from "${table_name}" t`)));
        dumps.push(...lines.map((line) => `${table_name}: ${line.line}`));
      }
      return dumps.join("\n");
    },
    async dispose() {
      setLogSink(undefined);
      setProcessDatabase(undefined);
      await db.dispose();
      if (!shared) await sandbox.stop();
      vi.unstubAllEnvs();
    },
  };
}

/**
 * The file's harness: started before its tests (startPartnersHarness(env)) and disposed of after them. Before each
 * test the sandbox forgets the requests it saw (`clear: "requests"`, the default) and, with "faults and requests",
 * the faults a test set too; "nothing" leaves both. The answer stands for the started harness (see lateBound).
 */
export function withPartnersHarness(
  env: Record<string, string> = {},
  { clear = "requests", kind }: { clear?: "nothing" | "requests" | "faults and requests"; kind?: TestDatabaseKind } = {},
): PartnersHarness {
  let harness: PartnersHarness | undefined;
  beforeAll(async () => {
    harness = await startPartnersHarness(env, kind);
  });
  afterAll(async () => {
    await harness?.dispose();
    harness = undefined;
  });
  if (clear !== "nothing") {
    beforeEach(async () => {
      if (clear === "faults and requests") await harness?.sandbox.clearFaults();
      await harness?.sandbox.clearRequests();
    });
  }
  return lateBound(() => harness, "the partners harness");
}

/** Both drivers answer `execute` with `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** Reads a handler's JSON answer. */
export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** The `name=value` pair of a Set-Cookie header, for sending the cookie back. */
export function cookiePair(response: Response, name: string): string | undefined {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    if (pair?.startsWith(`${name}=`)) return pair;
  }
  return undefined;
}

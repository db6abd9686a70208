import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { tamper } from "@/test/audit-trail";
import { restoreConfigEnv } from "@/test/config";
import { describeEachDatabase, stubTestEnvironment } from "@/test/db";
import { freshTarget, npmRun, removeTemplates, tempFolder, type Target } from "@/test/scripts";

import { runCli, UsageError } from "./cli";

/*
 * The command-line scripts as an operator runs them (`npm run …`), each test against a database of its own:
 * an empty PGlite data folder, or a fresh PostgreSQL database when TEST_DATABASE_URL is set. What is checked
 * is each script's contract: its exit code (audit:verify and audit:prune: 0 done, 1 broken chain, 2 could not
 * run; user:add: 2 for refused input, naming the field), what it prints, and what it leaves in the database.
 */

// A cold start (tsx, then PGlite creating its files) takes seconds on a busy machine; several runs per test.
const SLOW = 180_000;

/** An UPDATE the database refuses on the trail, made past its trigger as someone with superuser access would. */
async function tamperWith(target: Target, statement: string): Promise<void> {
  const handle = await target.open();
  try {
    await tamper(handle.db, sql.raw(statement));
  } finally {
    await handle.close();
  }
}

const ONE_TIME_PASSWORD = /one-time password \(shown once; to be replaced at first sign-in\): (\S+)/;
const HEAD = /^head: (\d+:[0-9a-f]{64})$/m;
const DAY = 86_400_000;

// The in-process writes below (old audit events) use the same audit key as the scripts (TEST_SECRETS).
beforeAll(() => stubTestEnvironment());
afterAll(async () => {
  restoreConfigEnv();
  await removeTemplates();
});

describe("runCli, the end of every script", () => {
  /** What `runCli(main, failure)` printed on stderr and the codes it exited with (process.exit, stubbed, returns). */
  async function ending(main: () => Promise<number | void>, failure?: Parameters<typeof runCli>[1]) {
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      runCli(main, failure);
      await vi.waitFor(() => expect(exit).toHaveBeenCalled());
      return { exits: exit.mock.calls.map(([code]) => code), stderr: error.mock.calls.map((args) => args.join(" ")) };
    } finally {
      exit.mockRestore();
      error.mockRestore();
    }
  }

  it("exits with the code main returns, 0 when it returns none, printing nothing", async () => {
    expect(await ending(() => Promise.resolve(1), { lead: "x:y failed" })).toEqual({ exits: [1], stderr: [] });
    expect(await ending(() => Promise.resolve())).toEqual({ exits: [0], stderr: [] });
  });

  it("reports what main throws under its lead, exit 2 unless told otherwise", async () => {
    const down = () => Promise.reject(new Error("connect ECONNREFUSED"));
    expect(await ending(down, { lead: "x:y could not run" })).toEqual({ exits: [2], stderr: ["x:y could not run: connect ECONNREFUSED"] });
    expect(await ending(down, { lead: "x:y failed", exitCode: () => 1 })).toEqual({
      exits: [1],
      stderr: ["x:y failed: connect ECONNREFUSED"],
    });
    expect(await ending(down)).toEqual({ exits: [2], stderr: ["connect ECONNREFUSED"] });
  });

  it("prints a usage error with the usage, exit 2 whatever exitCode says", async () => {
    const wrong = () => Promise.reject(new UsageError("--role is required."));
    expect(await ending(wrong, { lead: "x:y failed", usage: "usage: x:y --role <role>", exitCode: () => 1 })).toEqual({
      exits: [2],
      stderr: ["--role is required.\nusage: x:y --role <role>"],
    });
  });
});

describe("command-line scripts, before any database is touched", () => {
  /** Runs the script against a database address that cannot be reached at all, with a data folder of its own. */
  const offline = (script: string, args: string[]) =>
    npmRun(script, args, { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", DATA_DIR: tempFolder() });

  it(
    "user:add refuses missing or bad input with exit 2 before connecting, naming the field",
    async () => {
      const [noRole, badEmail, badRole, stray] = await Promise.all([
        offline("user:add", ["--email", "ana@example.com.br"]),
        offline("user:add", ["--email", "not-an-email", "--role", "admin"]),
        offline("user:add", ["--email", "ana@example.com.br", "--role", "owner"]),
        offline("user:add", ["--email", "ana@example.com.br", "--role", "admin", "--rol", "x"]),
      ]);
      expect(noRole).toMatchObject({ code: 2, stdout: "" });
      expect(noRole.stderr).toContain("--role is required.");
      expect(badEmail.code).toBe(2);
      expect(badEmail.stderr).toMatch(/^--email: /m);
      expect(badRole.code).toBe(2);
      expect(badRole.stderr).toMatch(/^--role: must be one of viewer, analyst, reviewer, auditor, admin/m);
      expect(stray.code).toBe(2);
      expect(stray.stderr).toContain("--rol");
      // Refused before any connection: the database address given cannot be reached at all.
      for (const run of [noRole, badEmail, badRole, stray]) {
        expect(run.stderr).toContain("usage: npm run user:add");
        expect(run.stderr).not.toMatch(/ECONNREFUSED/);
      }
    },
    SLOW,
  );

  it(
    "audit:verify and audit:prune exit 2 on a usage error or an unreachable database, 1 never",
    async () => {
      const [badHead, badFlag, verifyDown, pruneDown] = await Promise.all([
        offline("audit:verify", ["--head", "not-a-head"]),
        offline("audit:prune", ["--everything"]),
        offline("audit:verify", []),
        offline("audit:prune", []),
      ]);
      expect(badHead.code).toBe(2);
      expect(badHead.stderr).toContain("usage: npm run audit:verify [-- --head <id>:<hash>]");
      expect(badFlag.code).toBe(2);
      expect(badFlag.stderr).toContain("(unknown: --everything)");
      expect(verifyDown.code).toBe(2);
      expect(verifyDown.stderr).toContain("audit:verify could not run:");
      expect(pruneDown.code).toBe(2);
      expect(pruneDown.stderr).toContain("audit:prune failed, nothing was removed:");
    },
    SLOW,
  );
});

describeEachDatabase("command-line scripts on $name", ({ name }) => {
  it(
    "db:migrate creates the schema on an empty database and seeds the demo accounts; a second run changes nothing",
    async () => {
      const target = await freshTarget(name);
      const first = await npmRun("db:migrate", [], target.env);
      expect(first).toMatchObject({ code: 0, stdout: `database ready (${name})\n` });
      const tables = await target.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public'",
      );
      expect(tables.map((row) => row.table_name)).toEqual(expect.arrayContaining(["staff_users", "audit_events", "cases"]));
      const accounts = () => target.query<{ email: string }>("select email from staff_users order by email");
      expect((await accounts()).map((row) => row.email)).toEqual(["admin@sandbox.local", "analyst@sandbox.local"]);

      const second = await npmRun("db:migrate", [], target.env);
      expect(second.code).toBe(0);
      expect((await accounts()).map((row) => row.email)).toEqual(["admin@sandbox.local", "analyst@sandbox.local"]);
    },
    SLOW,
  );

  it(
    "user:add creates the account, prints its one-time password once and stores only a hash; the same email again exits 2",
    async () => {
      const target = await freshTarget(name, { migrated: true });
      const created = await npmRun("user:add", ["--email", "Ana@Example.com.br", "--role", "admin", "--name", "Ana Souza"], target.env);
      expect(created.code).toBe(0);
      expect(created.stdout).toContain("created admin ana@example.com.br");
      const password = ONE_TIME_PASSWORD.exec(created.stdout)?.[1];
      expect(password).toBeDefined();
      expect(created.stdout.split(password!)).toHaveLength(2);

      const rows = await target.query<Record<string, unknown>>("select * from staff_users where email = 'ana@example.com.br'");
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ role: "admin", name: "Ana Souza" });
      expect(JSON.stringify(rows)).not.toContain(password);
      const events = await target.query<{ action: string }>("select action from audit_events");
      expect(events.length).toBeGreaterThan(0);

      const again = await npmRun("user:add", ["--email", "ana@example.com.br", "--role", "analyst"], target.env);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain("A staff account with the email ana@example.com.br already exists.");
      expect(await target.query("select id from staff_users where email = 'ana@example.com.br'")).toHaveLength(1);
    },
    SLOW,
  );

  it(
    "audit:verify exits 0 on an intact chain and with the head it printed, 1 naming an edited event",
    async () => {
      const target = await freshTarget(name, { migrated: true });
      expect((await npmRun("user:add", ["--email", "bruno@example.com.br", "--role", "analyst"], target.env)).code).toBe(0);

      const intact = await npmRun("audit:verify", [], target.env);
      expect(intact.code).toBe(0);
      expect(intact.stdout).toMatch(/^audit chain intact: \d+ events checked from the start of the chain/);
      const head = HEAD.exec(intact.stdout)?.[1];
      expect(head).toBeDefined();
      const noted = await npmRun("audit:verify", ["--head", head!], target.env);
      expect(noted.code).toBe(0);
      expect(noted.stdout).toContain(`the head noted earlier (event #${head!.split(":")[0]}) is still in the chain`);

      const { id } = (await target.query<{ id: number }>("select max(id)::int as id from audit_events"))[0]!;
      await tamperWith(target, `update audit_events set purpose = 'covering tracks' where id = ${id}`);
      const broken = await npmRun("audit:verify", [], target.env);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain(`audit chain BROKEN at event #${id}`);
      expect(broken.stdout).not.toContain("intact");
    },
    SLOW,
  );

  /** A fresh database holding three events older than 30 days, then a recent one. */
  async function trailWithOldEvents(): Promise<Target> {
    const target = await freshTarget(name, { migrated: true });
    const handle = await target.open();
    try {
      for (const days of [40, 35, 31]) {
        await recordEvent({ actor: null, action: "auth.sign_in", outcome: "failure", at: new Date(Date.now() - days * DAY) }, handle.db);
      }
      await recordEvent({ actor: null, action: "auth.sign_in", outcome: "success" }, handle.db);
    } finally {
      await handle.close();
    }
    return target;
  }

  const eventCount = async (target: Target) => (await target.query<{ n: number }>("select count(*)::int as n from audit_events"))[0]!.n;

  it(
    "audit:prune removes the events past retention under a signed checkpoint, which audit:verify accepts; --dry-run only counts",
    async () => {
      const target = await trailWithOldEvents();
      const env = { ...target.env, AUDIT_RETENTION_DAYS: "30" };

      const dry = await npmRun("audit:prune", ["--dry-run"], env);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toMatch(/^dry run: 3 audit events older than 30 days \(before .+\) would be removed, up to event #\d+\./);
      expect(await eventCount(target)).toBe(4);

      const pruned = await npmRun("audit:prune", [], env);
      expect(pruned.code).toBe(0);
      expect(pruned.stdout).toMatch(/^removed 3 audit events older than 30 days .*signed checkpoint #\d+ written/);
      // Left: the recent event and the prune's own record.
      expect(await eventCount(target)).toBe(2);
      const verified = await npmRun("audit:verify", [], env);
      expect(verified.code).toBe(0);
      expect(verified.stdout).toMatch(/^audit chain intact: 2 events checked from retention checkpoint #\d+ \(3 events up to #\d+/);
    },
    SLOW,
  );

  it(
    "audit:prune exits 1 and removes nothing while the chain is broken, unless told --allow-broken-chain",
    async () => {
      const target = await trailWithOldEvents();
      const env = { ...target.env, AUDIT_RETENTION_DAYS: "30" };
      await tamperWith(target, "update audit_events set outcome = 'denied' where id = (select max(id) from audit_events)");

      const refused = await npmRun("audit:prune", [], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("audit:prune failed, nothing was removed:");
      expect(await eventCount(target)).toBe(4);

      const allowed = await npmRun("audit:prune", ["--allow-broken-chain"], env);
      expect(allowed.code).toBe(0);
      expect(allowed.stdout).toMatch(/^removed 3 audit events older than 30 days/);
      expect(await eventCount(target)).toBe(2);
    },
    SLOW,
  );
});

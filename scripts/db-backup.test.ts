import fs from "node:fs";
import path from "node:path";

import { inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";

import { auditHeadFilePath, checkpointAuditHead, readExternalHead } from "@/lib/audit-trail/server/head-file";
import { recordEvent } from "@/lib/audit-trail/server/record";
import { verifyAuditChain } from "@/lib/audit-trail/server/verify";
import { staffUsers } from "@/lib/auth/server/tables";
import { startBackupSocket } from "@/lib/backup/server/socket-server";
import { assignCase } from "@/lib/cases/server/assignment";
import { getCase } from "@/lib/cases/server/detail";
import { addNote } from "@/lib/cases/server/notes";
import { confirmOutcome, recordOutcome } from "@/lib/cases/server/outcome";
import { applyObservations, observe } from "@/lib/cases/server/store";
import { configuredSource, createDatabase, type DatabaseHandle } from "@/lib/db/client";
import { setLogSink } from "@/lib/log";
import { makeStaff, makeVerification, TEST_SETTINGS } from "@/test/cases";
import { rereadConfig, restoreConfigEnv, stubConfigEnv } from "@/test/config";
import { setProcessDatabase } from "@/test/db";
import { npmRun, tempFolder } from "@/test/scripts";

/*
 * `npm run db:backup` and `npm run db:restore` as an operator runs them, on an embedded database in a folder of the
 * test's own. The dashboard's side runs in this process, as instrumentation.ts starts it: the database opened from
 * DATA_DIR (so no command may open it) and the backup socket. Secrets are generated into DATA_DIR/secrets.json as in
 * the embedded default (the test's fixed ones blanked), so the trail verifies after a restore only with the
 * archive's keys, and the notes read only with its data key.
 */

// Each command is a cold start (tsx, PGlite); the first test runs six of them.
const SLOW = 300_000;

const GENERATED_SECRETS = {
  NEXTAUTH_SECRET: "",
  MEDIA_SEAL_SECRET: "",
  AUDIT_HASH_SECRET: "",
  DATA_ENCRYPTION_SECRET: "",
  WEBHOOK_SIGNING_SECRET: "",
};

// The server side's log lines (socket, head checkpoints) stay out of the run's output.
beforeAll(() => setLogSink(() => undefined));
afterAll(() => setLogSink(undefined));
afterEach(() => {
  setProcessDatabase(undefined);
  restoreConfigEnv();
});

/** The embedded default in a folder of the test's: DATA_DIR inside it, the head file at its default, beside DATA_DIR. */
function embeddedEnvironment(): { root: string; dataDir: string; env: Record<string, string> } {
  const root = tempFolder();
  const dataDir = path.join(root, "data");
  const env = { DATA_DIR: dataDir, AUDIT_HEAD_FILE: "", CORE_URL: "", PARTNERS_URL: "", DATABASE_URL: "", ...GENERATED_SECRETS };
  stubConfigEnv(env);
  return { root, dataDir, env };
}

/** The dashboard's database as the server opens it (DATA_DIR/pglite), the process database meanwhile. */
async function openAsServer(): Promise<DatabaseHandle> {
  const handle = await createDatabase(configuredSource());
  setProcessDatabase(handle);
  return handle;
}

/** Staff, and a case worked to a confirmed reproval with a note, through the case code (each step on the trail). */
async function caseWork(db: DatabaseHandle["db"]): Promise<{ publicId: string; staffIds: string[] }> {
  const author = await makeStaff(db, "analyst");
  const confirmer = await makeStaff(db, "admin");
  const verification = makeVerification();
  await applyObservations(db, [observe(verification, TEST_SETTINGS)], TEST_SETTINGS);
  await assignCase(db, author, verification.publicId, "me");
  await addNote(db, author, verification.publicId, "The mother's name differs from the federal record.");
  // A reprove needs a second person (four eyes): the confirmation is on the case and on the trail too.
  await recordOutcome(db, author, verification.publicId, {
    recommendation: "reprove",
    reasons: ["document_mismatch"],
    comment: "Name differs.",
  });
  await confirmOutcome(db, confirmer, verification.publicId, { agree: true, comment: "" });
  return { publicId: verification.publicId, staffIds: [author.actor.id, confirmer.actor.id] };
}

it(
  "backs up a running dashboard through its socket; restored into a wiped DATA_DIR, every case and note is back and the trail verifies",
  async () => {
    const { root, dataDir, env } = embeddedEnvironment();
    const server = await openAsServer();
    const socket = await startBackupSocket();
    expect(socket?.path).toBe(path.join(dataDir, "backup.sock"));
    expect(fs.statSync(socket!.path).mode & 0o777).toBe(0o600);
    const { publicId, staffIds } = await caseWork(server.db);
    const headFile = auditHeadFilePath()!;
    expect(await checkpointAuditHead(server.db)).not.toBeNull();
    const before = await getCase(server.db, "primary", publicId);
    expect(before?.entries.map((entry) => entry.kind)).toContain("note");

    // The dashboard keeps writing while the copy is taken: the copy is of one moment between two transactions.
    const archive = path.join(root, "backup.kycbackup");
    let backingUp = true;
    const backup = npmRun("db:backup", ["--out", archive], env).finally(() => (backingUp = false));
    let written = 0;
    while (backingUp) {
      await recordEvent({ actor: null, action: "search.cpf", outcome: "success" }, server.db);
      written += 1;
      // PGlite answers without a turn of the event loop: give the socket and the child's exit theirs.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const backedUp = await backup;
    expect(backedUp.stderr).toBe("");
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toContain("copied by the running dashboard");
    expect(backedUp.stdout).toContain("This archive holds the keys");
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    expect(written).toBeGreaterThan(0);

    const whileRunning = await npmRun("db:restore", [archive], env);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.stderr).toContain("a dashboard is running on this DATA_DIR");

    await socket!.close();
    expect(fs.existsSync(socket!.path)).toBe(false);
    setProcessDatabase(undefined);
    await server.close();
    fs.rmSync(dataDir, { recursive: true });
    fs.rmSync(headFile);

    const restored = await npmRun("db:restore", [archive], env);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(fs.statSync(path.join(dataDir, "secrets.json")).mode & 0o777).toBe(0o600);

    // The keys are the restored secrets.json's: read afresh, as a restarted server would.
    rereadConfig();
    const reopened = await createDatabase(configuredSource());
    try {
      const external = readExternalHead(headFile)!;
      const verified = await verifyAuditChain(reopened.db, {
        externalHead: { id: external.throughEventId, hash: external.throughEventHash, chainId: external.chainId },
      });
      expect(verified.broken).toBeNull();
      expect(verified.ok).toBe(true);
      expect(verified.lastEventId).toBeGreaterThanOrEqual(external.throughEventId);
      expect(await getCase(reopened.db, "primary", publicId)).toEqual(before);
      const staff = await reopened.db.select({ id: staffUsers.id }).from(staffUsers).where(inArray(staffUsers.id, staffIds));
      expect(staff).toHaveLength(2);
    } finally {
      await reopened.close();
    }

    // Stopped, the command opens the folder itself.
    const offline = await npmRun("db:backup", ["--out", path.join(root, "again.kycbackup")], env);
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain("copied from the stopped database");
  },
  SLOW,
);

it(
  "restore refuses a non-empty target without --force and, with it, moves DATA_DIR and the head file aside",
  async () => {
    const { root, dataDir, env } = embeddedEnvironment();
    const server = await openAsServer();
    await caseWork(server.db);
    await checkpointAuditHead(server.db);
    await server.close();
    const headFile = auditHeadFilePath()!;
    const archive = path.join(root, "backup.kycbackup");
    expect((await npmRun("db:backup", ["--out", archive], env)).code).toBe(0);
    const secrets = fs.readFileSync(path.join(dataDir, "secrets.json"));

    const refused = await npmRun("db:restore", [archive], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the target is not empty");
    expect(refused.stderr).toContain("--force");
    expect(fs.readdirSync(root).sort()).toEqual(["backup.kycbackup", "data", "data-audit-head.json"]);

    const forced = await npmRun("db:restore", [archive, "--force"], env);
    expect(forced.code).toBe(0);
    const aside = fs.readdirSync(root).filter((name) => name.includes(".replaced-"));
    expect(aside.map((name) => name.replace(/\.replaced-.*/, "")).sort()).toEqual(["data", "data-audit-head.json"]);
    // Kept as they were: the old database, its keys and the head file.
    const oldData = path.join(
      root,
      aside.find((name) => name.startsWith("data.replaced-"))!,
    );
    expect(fs.readFileSync(path.join(oldData, "secrets.json"))).toEqual(secrets);
    expect(fs.existsSync(path.join(oldData, "pglite", "PG_VERSION"))).toBe(true);
    expect(
      readExternalHead(
        path.join(
          root,
          aside.find((name) => name.startsWith("data-audit-head"))!,
        ),
      ),
    ).not.toBeNull();
    expect(fs.readFileSync(path.join(dataDir, "secrets.json"))).toEqual(secrets);
    expect(readExternalHead(headFile)).not.toBeNull();
  },
  SLOW,
);

it(
  "restore refuses a file that is not an intact archive, and changes nothing",
  async () => {
    const { root, dataDir, env } = embeddedEnvironment();
    const garbage = path.join(root, "notes.txt");
    fs.writeFileSync(garbage, "not a backup\n");
    const refused = await npmRun("db:restore", [garbage], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is not a backup this dashboard can restore");
    expect(fs.existsSync(dataDir)).toBe(false);
  },
  SLOW,
);

it(
  "with DATABASE_URL set, both commands refuse and point to the PostgreSQL procedure",
  async () => {
    const { root, env } = embeddedEnvironment();
    const postgres = { ...env, DATABASE_URL: "postgres://backup@127.0.0.1:1/none" };
    const backup = await npmRun("db:backup", ["--out", path.join(root, "x.kycbackup")], postgres);
    const restore = await npmRun("db:restore", [path.join(root, "x.kycbackup")], postgres);
    for (const run of [backup, restore]) {
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("DATABASE_URL is set");
      expect(run.stderr).toContain("pg_dump");
    }
    expect(fs.readdirSync(root)).toEqual([]);
  },
  SLOW,
);

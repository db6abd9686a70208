import "server-only";

import fs from "node:fs";
import path from "node:path";

import { auditHeadFilePath } from "@/lib/audit-trail/server/head-file";
import { dataLocations, generatedSecretsFile, type DataLocations } from "@/lib/config";
import { shippedMigrations } from "@/lib/db/client";
import { embeddedDirectory, loadSnapshot } from "@/lib/db/embedded-snapshot";

import { readArchive, type Manifest } from "./archive";
import { notAskable, refuseWithPostgres } from "./backup";
import { BackupRefused } from "./refused";
import { askServer, backupSocketPath, socketPathFits } from "./socket";

/*
 * `npm run db:restore -- FILE`: puts an archive (backup.ts) back as DATA_DIR's database and secrets.json, and its
 * audit head file where AUDIT_HEAD_FILE says. Everything is checked before anything is touched: the archive whole
 * (archive.ts), its migrations against this code's, no server running, and an empty target. A target in use (DATA_DIR
 * not empty, or a head file already there) needs --force, and is then moved aside, never deleted: the head file in
 * particular may name events newer than the backup, the evidence of what the restore rolled back. A restore that
 * fails midway removes what it wrote and moves back what it moved.
 */

export interface RestoreResult {
  manifest: Manifest;
  dataDir: string;
  /** What --force moved aside: [from, to]. */
  movedAside: Array<[string, string]>;
  /** Where the archive's head file went (null: it held none, or AUDIT_HEAD_FILE=off). */
  headFile: string | null;
  secretsRestored: boolean;
  /** Secret variables set, which override the restored secrets.json's values. */
  secretVariablesSet: string[];
}

/** What already sits where the restore writes (a stale socket was removed while asking whether a server runs). */
function occupied(dataDir: string, headFile: string | null): string[] {
  const inDataDir = fs.existsSync(dataDir) ? fs.readdirSync(dataDir).map((name) => path.join(dataDir, name)) : [];
  return [...inDataDir, ...(headFile && fs.existsSync(headFile) ? [headFile] : [])];
}

async function refuseRunningServer(dataDir: string, serverStopped: boolean): Promise<void> {
  const socket = backupSocketPath(dataDir);
  if (!socketPathFits(socket)) {
    if (!serverStopped) throw new BackupRefused(notAskable(socket));
    return;
  }
  const running = await askServer(socket, "ping");
  if (running)
    throw new BackupRefused(
      `a dashboard is running on this DATA_DIR (process ${running.answer.pid ?? "?"}): stop it, then restore; nothing was changed`,
    );
}

export async function restoreEmbedded(
  { file, force = false, serverStopped = false }: { file: string; force?: boolean; serverStopped?: boolean },
  locations: DataLocations = dataLocations(),
): Promise<RestoreResult> {
  refuseWithPostgres(locations, "db:restore");
  const archive = readArchive(file);
  const { manifest } = archive;
  const shipped = shippedMigrations();
  if (manifest.migrations > shipped)
    throw new BackupRefused(
      `the archive was made by a newer version (${manifest.appVersion}, ${manifest.migrations} migrations; this one has ${shipped}): restore it with that version or a later one`,
    );
  const dataDir = path.resolve(locations.dataDir);
  const headFile = auditHeadFilePath({ file: locations.auditHeadFile, url: undefined, dataDir });
  await refuseRunningServer(dataDir, serverStopped);
  const inUse = occupied(dataDir, headFile);
  if (inUse.length && !force)
    throw new BackupRefused(
      `the target is not empty (${inUse.join(", ")}): run again with --force to move it aside (it is kept, never deleted); nothing was changed`,
    );
  const undo = new Undo();
  try {
    const movedAside = moveAside(dataDir, headFile, undo);
    if (!fs.existsSync(dataDir)) undo.created(dataDir);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const directory = embeddedDirectory(dataDir);
    undo.created(directory);
    const tarball = new Blob([new Uint8Array(archive.entries["database.tar.gz"]!)], { type: "application/x-gzip" });
    const loaded = await loadSnapshot(directory, tarball);
    if (loaded !== manifest.migrations)
      throw new BackupRefused(`the archive's database holds ${loaded} migrations where its manifest says ${manifest.migrations}`);
    const secrets = archive.entries["secrets.json"];
    if (secrets) writeNew(generatedSecretsFile(dataDir), secrets, undo);
    const head = archive.entries["audit-head.json"];
    if (head && headFile) writeNew(headFile, head, undo);
    return {
      manifest,
      dataDir,
      movedAside,
      headFile: head && headFile ? headFile : null,
      secretsRestored: Boolean(secrets),
      secretVariablesSet: locations.secretVariablesSet,
    };
  } catch (error) {
    undo.run();
    throw error;
  }
}

/** With --force: DATA_DIR and the head file renamed beside themselves, `<name>.replaced-<time>`. */
function moveAside(dataDir: string, headFile: string | null, undo: Undo): Array<[string, string]> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const moved: Array<[string, string]> = [];
  const move = (from: string) => {
    const to = `${from}.replaced-${stamp}`;
    fs.renameSync(from, to);
    undo.moved(from, to);
    moved.push([from, to]);
  };
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length) move(dataDir);
  // Checked after DATA_DIR moved: a head file inside it (AUDIT_HEAD_FILE pointing there) went with it.
  if (headFile && fs.existsSync(headFile)) move(headFile);
  return moved;
}

function writeNew(file: string, bytes: Buffer, undo: Undo): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes, { mode: 0o600, flag: "wx" });
  undo.created(file);
}

/** What a failed restore takes back, newest first: only what it made itself, and what it moved, moved back. */
class Undo {
  private steps: Array<() => void> = [];

  created(target: string): void {
    this.steps.push(() => fs.rmSync(target, { recursive: true, force: true }));
  }

  moved(from: string, to: string): void {
    this.steps.push(() => fs.renameSync(to, from));
  }

  run(): void {
    for (const step of this.steps.reverse()) {
      try {
        step();
      } catch {
        // Keep undoing the rest; what stays is named by the error the restore reports.
      }
    }
  }
}

import "server-only";

import fs from "node:fs";
import path from "node:path";

import { auditHeadFilePath } from "@/lib/audit-trail/server/head-file";
import { dataLocations, generatedSecretsFile, type DataLocations } from "@/lib/config";
import { embeddedDirectory, holdsEmbeddedDatabase, snapshotStoppedDatabase, type EmbeddedSnapshot } from "@/lib/db/embedded-snapshot";

import { writeArchive, type EntryName, type Manifest } from "./archive";
import { BackupRefused } from "./refused";
import { askServer, backupSocketPath, socketPathFits } from "./socket";

/*
 * `npm run db:backup`: the embedded default's state in one archive (archive.ts): the database (PGlite's data folder,
 * copied by the running server over its socket, or opened here when no server runs), DATA_DIR/secrets.json (the
 * key rings that seal notes and key the audit trail) and the audit head kept outside the database
 * (AUDIT_HEAD_FILE), which `npm run audit:verify` checks the restored trail against.
 */

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: Pick<Manifest, "migrations" | "source">;
  entries: EntryName[];
  /** Where the head kept outside the database is (null: AUDIT_HEAD_FILE=off). */
  headFile: string | null;
  /** Secret variables set, whose values are not in the archive. */
  secretVariablesSet: string[];
}

/** `--out`'s default: in the working folder, named by the time. */
export function defaultBackupName(now = new Date()): string {
  return path.resolve(`kyc-backup-${now.toISOString().replace(/[:.]/g, "-")}.kycbackup`);
}

/** Refused with DATABASE_URL: the archive format is PGlite's folder; PostgreSQL has its own tools. */
export function refuseWithPostgres(locations: DataLocations, command: string): void {
  if (locations.databaseUrl)
    throw new BackupRefused(
      `DATABASE_URL is set: ${command} is for the embedded database only. Back up PostgreSQL with pg_dump and keep the ` +
        "secrets and the audit head file beside it (docs/operations.md, Backups).",
    );
}

function appVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as { version?: string };
  return manifest.version ?? "unknown";
}

const readIfPresent = (file: string | null) => (file && fs.existsSync(file) ? fs.readFileSync(file) : undefined);

/**
 * Writes the archive. The files outside the database are read first: the head file moves forward only after the
 * database committed that head, so read before the copy it names a head the copy holds (read after, it could name a
 * newer one, and the restored trail would look cut off).
 */
export async function backupEmbedded(
  { out = defaultBackupName(), serverStopped = false }: { out?: string; serverStopped?: boolean },
  locations: DataLocations = dataLocations(),
): Promise<BackupResult> {
  refuseWithPostgres(locations, "db:backup");
  const file = path.resolve(out);
  if (fs.existsSync(file)) throw new BackupRefused(`${file} exists: name another file with --out`);
  const headFile = auditHeadFilePath({ file: locations.auditHeadFile, url: undefined, dataDir: locations.dataDir });
  const secrets = readIfPresent(generatedSecretsFile(locations.dataDir));
  const head = readIfPresent(headFile);
  const { snapshot, source } = await copyDatabase(locations.dataDir, serverStopped);
  const entries: Partial<Record<EntryName, Buffer>> = {
    "database.tar.gz": Buffer.from(await snapshot.tarball.arrayBuffer()),
    "secrets.json": secrets,
    "audit-head.json": head,
  };
  const header = { createdAt: new Date().toISOString(), appVersion: appVersion(), migrations: snapshot.migrations, source };
  const bytes = writeArchive(file, header, entries);
  return {
    file,
    bytes,
    manifest: header,
    entries: (Object.keys(entries) as EntryName[]).filter((name) => entries[name]),
    headFile,
    secretVariablesSet: locations.secretVariablesSet,
  };
}

/** From the running server when one answers on the socket, else from the stopped folder. */
async function copyDatabase(dataDir: string, serverStopped: boolean): Promise<{ snapshot: EmbeddedSnapshot; source: Manifest["source"] }> {
  const socket = backupSocketPath(dataDir);
  if (socketPathFits(socket)) {
    const asked = await askServer(socket, "backup");
    if (asked) {
      if (!asked.answer.ok)
        throw new Error(`the running dashboard could not copy its database: ${asked.answer.error ?? "no reason given"}`);
      const tarball = new Blob([new Uint8Array(asked.body)], { type: "application/x-gzip" });
      return { snapshot: { migrations: asked.answer.migrations ?? 0, tarball }, source: "running server" };
    }
  } else if (!serverStopped) {
    throw new BackupRefused(notAskable(socket));
  }
  const directory = embeddedDirectory(dataDir);
  if (!holdsEmbeddedDatabase(directory)) throw new BackupRefused(`no embedded database in ${directory}: check DATA_DIR`);
  return { snapshot: await snapshotStoppedDatabase(directory), source: "stopped database" };
}

/** Why a command cannot tell whether a server runs, and what to do (socket.ts, socketPathFits). */
export function notAskable(socket: string): string {
  return (
    `the backup socket's path (${socket}) is too long for a unix socket, so a running dashboard cannot be asked or ` +
    "detected: stop it and run again with --server-stopped, or use a shorter DATA_DIR"
  );
}

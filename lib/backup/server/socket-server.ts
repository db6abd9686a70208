import "server-only";

import fs from "node:fs";
import net from "node:net";

import { config } from "@/lib/config";
import { getDatabaseHandle } from "@/lib/db/client";
import { log } from "@/lib/log";

import { askServer, backupSocketPath, socketPathFits, type SocketAnswer } from "./socket";

/*
 * The running dashboard's side of the backup socket (socket.ts has the asking side and the exchange): in the embedded
 * default, the server listens on DATA_DIR/backup.sock (mode 0600) and answers a ping with its process id and a backup
 * with a consistent copy of its open database (lib/db/embedded-snapshot.ts). The socket file is removed when the
 * process exits; one left by a process that could not (killed) is found stale and replaced.
 */

export interface BackupSocket {
  path: string;
  /** Stops answering and removes the socket file. */
  close(): Promise<void>;
}

// On globalThis (`__kycBackupSocket`) like the process database (lib/db/client.ts): one socket per process, whatever
// bundle or reload calls the start.
const globalForSocket = globalThis as typeof globalThis & { __kycBackupSocket?: Promise<BackupSocket | null> };

/**
 * Starts answering, once per process (instrumentation.ts); null with DATABASE_URL, or when it could not (logged), in
 * which case a later call tries again.
 */
export function startBackupSocket(): Promise<BackupSocket | null> {
  globalForSocket.__kycBackupSocket ??= listen()
    .catch((error: unknown) => {
      log.warn("backup_socket_failed", { error });
      return null;
    })
    .then((socket) => {
      if (!socket) globalForSocket.__kycBackupSocket = undefined;
      return socket;
    });
  return globalForSocket.__kycBackupSocket;
}

async function listen(): Promise<BackupSocket | null> {
  const { url, dataDir } = config().database;
  if (url) return null;
  const file = backupSocketPath(dataDir);
  if (!socketPathFits(file)) {
    log.warn("backup_socket_unavailable", { file, reason: "the path is longer than a unix socket allows: use a shorter DATA_DIR" });
    return null;
  }
  // Someone answering here holds this very database folder, which PGlite admits once: leave it be and say so. A
  // socket nobody answers on is stale, and askServer removed it.
  if (await askServer(file, "ping")) {
    log.error("backup_socket_taken", { file, reason: "another process serves this DATA_DIR" });
    return null;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const server = net.createServer((connection) => answer(connection));
  await bindPrivately(server, file);
  // The socket alone never keeps the process alive (a test's worker, a script that started the server's code).
  server.unref();
  const inode = fs.statSync(file).ino;
  // Only our own socket: a later server's socket at the same path is not removed by this process ending.
  const removeOwn = () => {
    if (fs.statSync(file, { throwIfNoEntry: false })?.ino === inode) fs.rmSync(file, { force: true });
  };
  process.once("exit", removeOwn);
  log.info("backup_socket_listening", { file });
  return {
    path: file,
    async close() {
      process.off("exit", removeOwn);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      removeOwn();
      globalForSocket.__kycBackupSocket = undefined;
    },
  };
}

/**
 * Binds with a umask that leaves the socket to its owner (Node binds inside listen()), then sets 0600 in any case:
 * connecting takes write permission on the file, so nobody else can ask for the database.
 */
async function bindPrivately(server: net.Server, file: string): Promise<void> {
  let previous: number | undefined;
  try {
    previous = process.umask(0o177);
  } catch {
    // Worker threads cannot change the umask; the chmod below still closes the socket before anything is answered.
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(file, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } finally {
    if (previous !== undefined) process.umask(previous);
  }
  fs.chmodSync(file, 0o600);
}

const MAX_REQUEST_BYTES = 1024;

function answer(connection: net.Socket): void {
  let received = "";
  connection.on("error", () => connection.destroy());
  connection.setTimeout(10_000, () => connection.destroy());
  const onData = (chunk: Buffer) => {
    received += chunk.toString("utf8");
    const lineEnd = received.indexOf("\n");
    if (lineEnd < 0) {
      if (received.length > MAX_REQUEST_BYTES) connection.destroy();
      return;
    }
    connection.off("data", onData);
    connection.setTimeout(0);
    void respond(connection, received.slice(0, lineEnd));
  };
  connection.on("data", onData);
}

const line = (answer: SocketAnswer) => `${JSON.stringify(answer)}\n`;

async function respond(connection: net.Socket, request: string): Promise<void> {
  let asked: unknown;
  try {
    asked = (JSON.parse(request) as { request?: unknown }).request;
  } catch {
    asked = undefined;
  }
  if (asked === "ping") return void connection.end(line({ ok: true, pid: process.pid }));
  if (asked !== "backup") return void connection.end(line({ ok: false, error: "unknown request" }));
  try {
    const handle = await getDatabaseHandle();
    if (!handle.snapshot) throw new Error("this server's database is not the embedded one");
    const { migrations, tarball } = await handle.snapshot();
    const bytes = Buffer.from(await tarball.arrayBuffer());
    log.info("database_backup_copied", { migrations, bytes: bytes.length });
    connection.write(line({ ok: true, migrations, bytes: bytes.length }));
    connection.end(bytes);
  } catch (error) {
    log.error("database_backup_failed", { error });
    connection.end(line({ ok: false, error: error instanceof Error ? error.message : "the copy failed" }));
  }
}

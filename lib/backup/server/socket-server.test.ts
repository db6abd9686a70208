import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import { afterAll, afterEach, beforeAll, expect, it } from "vitest";

import { config } from "@/lib/config";
import { setLogSink } from "@/lib/log";
import { restoreConfigEnv, stubConfigEnv } from "@/test/config";
import { stubTestEnvironment } from "@/test/db";

import { askServer, backupSocketPath } from "./socket";
import { startBackupSocket, type BackupSocket } from "./socket-server";

/*
 * The server's backup socket (socket-server.ts) and the commands' way of asking it (socket.ts): in DATA_DIR, only its
 * owner's, gone when the server stops, and a socket left by a server that was killed found stale, not taken for a
 * running server.
 */

let started: BackupSocket | null = null;

beforeAll(() => setLogSink(() => undefined));
afterAll(() => setLogSink(undefined));
afterEach(async () => {
  await started?.close();
  started = null;
  restoreConfigEnv();
});

/** A socket file at `file` nobody listens on: its process listened, then was killed (no exit handler ran). */
function staleSocket(file: string): void {
  const script = `require("node:net").createServer().listen(${JSON.stringify(file)}, () => process.kill(process.pid, "SIGKILL"))`;
  const child = spawnSync(process.execPath, ["-e", script]);
  expect(child.signal).toBe("SIGKILL");
  expect(fs.lstatSync(file).isSocket()).toBe(true);
}

it("answers in DATA_DIR, to its owner only, and leaves no socket once stopped", async () => {
  stubTestEnvironment();
  const file = backupSocketPath(config().database.dataDir);
  started = await startBackupSocket();
  expect(started?.path).toBe(file);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(await startBackupSocket()).toBe(started);
  expect((await askServer(file, "ping"))?.answer).toEqual({ ok: true, pid: process.pid });
  await started!.close();
  started = null;
  expect(fs.existsSync(file)).toBe(false);
  expect(await askServer(file, "ping")).toBeNull();
});

it("a socket left by a killed server is stale: the commands remove it, and a new server takes its place", async () => {
  stubTestEnvironment();
  const file = backupSocketPath(config().database.dataDir);
  staleSocket(file);
  expect(await askServer(file, "ping")).toBeNull();
  expect(fs.existsSync(file)).toBe(false);

  staleSocket(file);
  started = await startBackupSocket();
  expect((await askServer(file, "ping"))?.answer.pid).toBe(process.pid);
});

it("does not listen with DATABASE_URL set, nor where DATA_DIR's path is too long for a unix socket", async () => {
  stubTestEnvironment({ DATABASE_URL: "postgres://backup@127.0.0.1:1/none" });
  expect(await startBackupSocket()).toBeNull();
  expect(fs.existsSync(backupSocketPath(config().database.dataDir))).toBe(false);
  const deep = path.join(config().database.dataDir, "d".repeat(120));
  stubConfigEnv({ DATABASE_URL: "", DATA_DIR: deep });
  expect(await startBackupSocket()).toBeNull();
  expect(fs.existsSync(backupSocketPath(deep))).toBe(false);
});

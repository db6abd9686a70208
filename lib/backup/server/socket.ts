import "server-only";

import fs from "node:fs";
import net from "node:net";
import path from "node:path";

/*
 * The running dashboard's backup socket, from the asking side (`npm run db:backup`, `db:restore`). In the embedded
 * default the server holds the PGlite folder, which admits one process, so a command cannot open it meanwhile: it asks
 * the server over a unix socket in DATA_DIR (socket-server.ts), which only the folder's owner can reach (mode 0600).
 *
 * The exchange: one line of JSON asked (`{"request":"ping"}` or `{"request":"backup"}`), one line of JSON answered
 * (`{"ok":true,…}` or `{"ok":false,"error":…}`), then, for a backup, the number of bytes the answer announced.
 */

export type SocketRequest = "ping" | "backup";

export interface SocketAnswer {
  ok: boolean;
  error?: string;
  /** ping: the server's process id. */
  pid?: number;
  /** backup: migrations applied in the database copied, and the length of the copy that follows the line. */
  migrations?: number;
  bytes?: number;
}

/** The socket's path: in DATA_DIR, beside the database it serves. */
export function backupSocketPath(dataDir: string): string {
  return path.resolve(dataDir, "backup.sock");
}

/**
 * A unix socket's path is at most 107 bytes on Linux and 103 on macOS: a longer one cannot be listened on, so the
 * server warns and serves no backup, and the commands cannot tell whether it runs (they say so).
 */
export function socketPathFits(file: string): boolean {
  return Buffer.byteLength(file) <= 103;
}

// A backup copies the whole database in one go; a big one takes a while, a ping none.
const TIMEOUT_MS = { ping: 5_000, backup: 600_000 };

/**
 * Asks the server holding DATA_DIR; null when none runs: no socket, or a socket left by a server that did not end
 * cleanly (nobody listens: removed here, so it misleads nobody later).
 */
export async function askServer(file: string, request: SocketRequest): Promise<{ answer: SocketAnswer; body: Buffer } | null> {
  try {
    return await exchange(file, request);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ECONNREFUSED") {
      if (fs.lstatSync(file, { throwIfNoEntry: false })?.isSocket()) fs.rmSync(file, { force: true });
      return null;
    }
    throw error;
  }
}

function exchange(file: string, request: SocketRequest): Promise<{ answer: SocketAnswer; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(file);
    const chunks: Buffer[] = [];
    socket.setTimeout(TIMEOUT_MS[request], () => socket.destroy(new Error(`the dashboard's backup socket did not answer (${request})`)));
    socket.once("connect", () => socket.write(`${JSON.stringify({ request })}\n`));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("error", reject);
    socket.once("end", () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    // Settled already when the answer ended; otherwise the server went away mid-answer.
    socket.once("close", () => reject(new Error("the dashboard closed its backup socket before answering")));
  });
}

function parseAnswer(all: Buffer): { answer: SocketAnswer; body: Buffer } {
  const lineEnd = all.indexOf(0x0a);
  let answer: SocketAnswer | undefined;
  try {
    if (lineEnd >= 0) answer = JSON.parse(all.subarray(0, lineEnd).toString("utf8")) as SocketAnswer;
  } catch {
    answer = undefined;
  }
  if (!answer) throw new Error("the dashboard's backup socket answered nothing readable");
  const body = all.subarray(lineEnd + 1);
  if (answer.ok && answer.bytes !== undefined && body.length !== answer.bytes)
    throw new Error(`the dashboard's backup was cut off (${body.length} of ${answer.bytes} bytes)`);
  return { answer, body };
}

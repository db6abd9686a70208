import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { PassThrough } from "node:stream";

import { describe, expect, it } from "vitest";

import { guardProcessOutput } from "./output";

/*
 * An output whose reader has gone loses its lines and nothing else (lib/runtime/output.ts). A real process writes to
 * its own stdout, a pipe to this test, which closes its end: the process's next write fails with EPIPE, as when a log
 * collector or a supervisor goes.
 */

// The writer: guarded or not, it writes a first line, waits to hear that its reader has gone, writes more lines, counts
// those refused, and reports.
const WRITER = `
const { guardProcessOutput } = await import(${JSON.stringify(path.resolve(import.meta.dirname, "output.ts"))});
if (process.env.GUARDED === "yes") guardProcessOutput();
process.stdout.write("first line\\n");
await new Promise((resolve) => process.once("message", resolve));
let refused = 0;
for (let line = 0; line < 20; line += 1) {
  process.stdout.write("line " + line + "\\n", (error) => { if (error) refused += 1; });
  await new Promise((resolve) => setTimeout(resolve, 5));
}
process.send({ refused }, () => process.exit(0));
`;

async function writeWithTheReaderGone(guarded: boolean) {
  const writer = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "--input-type=module", "--eval", WRITER], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env: { ...process.env, GUARDED: guarded ? "yes" : "no" },
  });
  let stderr = "";
  writer.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const report = new Promise<{ refused: number } | undefined>((resolve) => {
    writer.once("message", (message) => resolve(message as { refused: number }));
    writer.once("exit", () => resolve(undefined));
  });
  const exited = once(writer, "exit") as Promise<[number | null]>;
  // The reader goes once the first line has arrived, and the writer is told.
  await once(writer.stdout!, "data");
  writer.stdout!.destroy();
  writer.send("gone");
  const [code] = await exited;
  return { code, report: await report, stderr };
}

describe("a process's output whose reader has gone", () => {
  it("guarded, loses the lines written after, each writer told by its callback, and the process goes on", async () => {
    const { code, report, stderr } = await writeWithTheReaderGone(true);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(report?.refused).toBe(20);
  }, 30_000);

  it("unguarded, fails the process with the write's error (what the guard is for)", async () => {
    const { code, report, stderr } = await writeWithTheReaderGone(false);
    expect(code).not.toBe(0);
    expect(report).toBeUndefined();
    expect(stderr).toMatch(/EPIPE/);
  }, 30_000);

  it("is guarded once however often it is asked", () => {
    const output = new PassThrough();
    guardProcessOutput([output]);
    guardProcessOutput([output]);
    expect(output.listenerCount("error")).toBe(1);
  });
});

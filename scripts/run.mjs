#!/usr/bin/env node
// `npm run dev` and `npm run demo`: the sandbox and the dashboard together, one Ctrl-C stops both. One that dies
// (a crash, an out-of-memory abort) is started again while the other keeps running (scripts/supervise.mjs).
//
//   node scripts/run.mjs dev            sandbox + `next dev`
//   node scripts/run.mjs demo           sandbox + `next build` + `next start` (what the browser tests use)
//   node scripts/run.mjs demo --no-build   reuse an existing production build
//
// PORT (default 3000) and SANDBOX_PORT (default 4010) move the two servers. Both listen on 127.0.0.1 only
// (the demo passwords are public) unless HOST names another address, e.g. HOST=0.0.0.0 for every interface.
// When CORE_URL or PARTNERS_URL is set the real service is configured: no sandbox starts and no demo account
// exists.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { connectHost, isLoopback, listenHost, nextArgs } from "./listen.mjs";
import { createSupervisor } from "./supervise.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [mode = "dev", ...flags] = process.argv.slice(2);
if (mode !== "dev" && mode !== "demo") {
  console.error(`usage: node scripts/run.mjs dev|demo [--no-build]`);
  process.exit(2);
}

const port = process.env.PORT || "3000";
const sandboxPort = process.env.SANDBOX_PORT || "4010";
const embedded = !process.env.CORE_URL && !process.env.PARTNERS_URL;
let host;
try {
  host = listenHost(process.env);
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
// How this machine reaches the two servers; `localhost` for the dashboard while it is only on this machine.
const reach = connectHost(host);
const dashboardUrl = isLoopback(host) || reach === "127.0.0.1" ? `http://localhost:${port}` : `http://${reach}:${port}`;
// No telemetry: the dashboard runs on air-gapped servers too.
const env = { NEXT_TELEMETRY_DISABLED: "1", ...process.env, PORT: port };
if (embedded) {
  env.SANDBOX_URL = process.env.SANDBOX_URL || `http://${reach}:${sandboxPort}`;
  env.NEXTAUTH_URL = process.env.NEXTAUTH_URL || dashboardUrl;
}

let stopping = false;
// Every child ends its own way: whichever dies is started again, the other keeps running; when both keep dying,
// everything stops.
const supervisor = createSupervisor({ onAllStopped: () => stop(1) });

// `next start` warns that it "does not work" with standalone output (next.config.mjs turns it on for the deployable
// archive): it does, it serves .next as ever; the line would only mislead whoever reads the demo's output.
const NEXT_START_STANDALONE_WARNING = /"next start" does not work with "output: standalone"/;

function start(name, command, args, extraEnv = {}) {
  return supervisor.add(name, () => {
    const child = spawn(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
    const prefix = `[${name}]`;
    const relay = (stream, target) => {
      let buffered = "";
      stream.on("data", (chunk) => {
        buffered += chunk.toString();
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        for (const line of lines) if (!NEXT_START_STANDALONE_WARNING.test(line)) target.write(`${prefix} ${line}\n`);
      });
    };
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
    return child;
  });
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  const children = supervisor.stop();
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  // The dashboard drains (lib/runtime/shutdown.ts: within SHUTDOWN_GRACE_SECONDS, default 25, usually a second or two);
  // past that and a margin, make sure nothing outlives us.
  const graceSeconds = Number(env.SHUTDOWN_GRACE_SECONDS) || 25;
  setTimeout(
    () => {
      for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
      process.exit(code);
    },
    (graceSeconds + 5) * 1000,
  ).unref();
  Promise.all(children.map((child) => (child.exitCode === null ? new Promise((r) => child.once("exit", r)) : null))).then(() =>
    process.exit(code),
  );
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
// Whatever reads our output has gone (`npm run demo | head` once head has its lines, a closed terminal): stop everything,
// gracefully, as a pipeline's writer would. Unheard, the EPIPE killed this process alone and left the children running
// with no parent and no reader.
for (const output of [process.stdout, process.stderr]) output.on("error", () => stop(0));

function waitFor(child, pattern, what) {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk) => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        child.stdout.off("data", onData);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", () => reject(new Error(`${what} stopped before it was ready`)));
  });
}

const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

/**
 * The production server's heap cap (docs/operations.md "Deploying"): V8 sizes its heap from the machine's memory and,
 * under load, lets garbage pile up to hundreds of megabytes before collecting; the live heap under 50
 * concurrent list views stays under 100 MB. Its young generation is kept to 4 MB semi-spaces (V8's default here is
 * 16): short-lived request garbage is collected sooner instead of reserving three times 16 MB. Not in development
 * (the compiler needs more), and neither flag when NODE_OPTIONS already sets it.
 */
const PRODUCTION_OLD_SPACE_MB = 192;
const PRODUCTION_SEMI_SPACE_MB = 4;
function heapFlags() {
  if (mode === "dev") return [];
  const given = process.env.NODE_OPTIONS ?? "";
  return [
    ...(/--max-old-space-size/.test(given) ? [] : [`--max-old-space-size=${PRODUCTION_OLD_SPACE_MB}`]),
    ...(/--max-semi-space-size/.test(given) ? [] : [`--max-semi-space-size=${PRODUCTION_SEMI_SPACE_MB}`]),
  ];
}

/**
 * glibc gives each thread that allocates its own malloc arena (up to eight per core); the server's threads (libuv's
 * pool, V8's workers, PGlite's) then each keep freed memory of their own. Two arenas, unless the environment says
 * otherwise. With the semi-spaces above: the server's peak resident set under the bench's load went from 370 to
 * 321 MiB (`npm run bench -- profile`, docs/benchmarks.md).
 */
function allocatorEnv() {
  return mode === "dev" ? {} : { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || "2" };
}

// Migrations (and, with the sandbox, the demo accounts) before the first request. This also writes the
// embedded default's generated secrets, the webhook signing secret among them, which the sandbox needs.
const migrateScript = path.join(root, "scripts", "db-migrate.ts");
const migrate = fs.existsSync(migrateScript)
  ? spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", migrateScript], { cwd: root, env, stdio: "inherit" })
  : { status: 0 };

if (embedded && migrate.status === 0) {
  // The sandbox signs its webhook deliveries with the dashboard's current key and sends them to its receiver.
  const webhookSecret = currentKeySecret(process.env.WEBHOOK_SIGNING_SECRET || generatedWebhookSecret());
  const sandbox = start("sandbox", process.execPath, ["--import", "tsx", "sandbox/server.ts"], {
    SANDBOX_PORT: sandboxPort,
    SANDBOX_HOST: process.env.SANDBOX_HOST || host,
    SANDBOX_WEBHOOK_URL: process.env.SANDBOX_WEBHOOK_URL || `http://${reach}:${port}/api/webhooks/verification-events`,
    SANDBOX_WEBHOOK_SECRET: webhookSecret,
  });
  // A sandbox that cannot start (its port taken) stops everything rather than being started again and again.
  await waitFor(sandbox, /sandbox listening on/, "the sandbox").catch((error) => {
    console.error(`${error.message}; stopping everything`);
    stop(1);
  });
}

/**
 * The current (first) key's secret of a ring value (lib/keys/ring.ts: `id:secret` entries, newest first, or
 * one plain secret), as the provider would sign with it after a rotation.
 */
function currentKeySecret(ring) {
  const first = ring.split(",")[0].trim();
  const entry = /^([A-Za-z0-9_-]{1,32}):(.+)$/s.exec(first);
  return entry ? entry[2] : first;
}

/** The ring lib/config/ generated into DATA_DIR/secrets.json (the migration above made sure it exists). */
function generatedWebhookSecret() {
  const file = path.resolve(root, process.env.DATA_DIR || ".data", "secrets.json");
  const secret = JSON.parse(fs.readFileSync(file, "utf8")).webhookSigning;
  if (typeof secret !== "string") throw new Error(`${file} holds no webhookSigning secret`);
  return secret;
}

if (stopping) {
  // The sandbox did not start; stop() is under way.
} else if (migrate.status !== 0) {
  console.error("database migration failed; see above");
  stop(1);
} else {
  if (mode === "demo" && !flags.includes("--no-build")) {
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, env, stdio: "inherit" });
    if (build.status !== 0) stop(build.status ?? 1);
  }
  if (!stopping) {
    // The production server stops gracefully on SIGTERM (lib/runtime/shutdown.ts): Next leaves the signal to it.
    const signals = mode === "demo" ? { NEXT_MANUAL_SIG_HANDLE: "true" } : {};
    const app = start("dashboard", process.execPath, [...heapFlags(), nextBin, ...nextArgs(mode, port, host)], {
      ...signals,
      ...allocatorEnv(),
    });
    await waitFor(app, /Ready|started server|Local:/i, "the dashboard").catch((error) => {
      console.error(`${error.message}; stopping everything`);
      stop(1);
    });
    if (!stopping) {
      const lines = [`Dashboard: ${dashboardUrl}`];
      if (!isLoopback(host)) lines.push(`Listening on ${host} (HOST): reachable from other machines.`);
      if (embedded) {
        lines.push(
          `Sandbox:   ${env.SANDBOX_URL}`,
          "Demo accounts (sandbox only):",
          "  admin    admin@sandbox.local    / sandbox-admin",
          "  analyst  analyst@sandbox.local  / sandbox-analyst",
          `Second factors: ${env.MFA_REQUIRED ? `MFA_REQUIRED=${env.MFA_REQUIRED}` : "optional (MFA_REQUIRED=off, the sandbox default; production defaults to privileged)"}. Any account can add one at /account.`,
        );
        if (!isLoopback(host)) lines.push("Warning: these demo passwords are public; anyone who reaches this address can sign in.");
      }
      console.log(`\n${lines.join("\n")}\n`);
    }
  }
}

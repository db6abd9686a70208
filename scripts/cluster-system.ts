// A deployment of several instances on this machine, run from the archive of `npm run package` as a server would
// run it: the sandbox, a fresh PostgreSQL database, two production instances (`node start.mjs` in the unpacked
// archive, each on its own port) and Debian's nginx in front of them, started with a configuration of its own in a
// temporary folder (not the system's service) that includes the archive's deploy/nginx/kyc-backoffice-proxy.conf, so
// what runs is what ships. `npm run cluster` (scripts/cluster.ts) keeps it up until Ctrl-C; test/cluster/ drives it.
//
// Every process it starts is stopped by its pid, its database dropped and its folder removed by `stop()`, and killed
// when this process exits whatever the reason. Nothing waits a fixed time: each step waits on a condition, with a
// deadline.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

import pg from "pg";

import { blankAppEnv } from "./app-env.mjs";
import { ROOT } from "./bench-system";
import { ensureNginx, nginxConfig } from "./cluster-nginx";

// ---- waiting ------------------------------------------------------------------------------------------

/** Polls `check` until it answers something other than undefined/false, or throws naming `what` at the deadline. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// ---- the archive ------------------------------------------------------------------------------------

/** `npm run package` (built when stale): the archive's path. */
export function packageArchive(): string {
  const run = spawnSync(process.execPath, [path.join(ROOT, "scripts", "package.mjs")], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const archive = run.stdout.trim().split("\n").at(-1) ?? "";
  if (run.status !== 0 || !fs.existsSync(archive)) throw new Error(`npm run package failed (status ${run.status})`);
  return archive;
}

/** Unpacks the archive into `into` (an empty folder); its one folder, the release's. */
export function unpackArchive(archive: string, into: string): string {
  const tar = spawnSync("tar", ["--extract", "--gzip", "--file", archive, "--directory", into], { stdio: "inherit" });
  if (tar.status !== 0) throw new Error(`tar could not unpack ${archive}`);
  const [folder, ...more] = fs.readdirSync(into);
  if (!folder || more.length) throw new Error(`${archive} should hold one folder, not ${[folder, ...more].join(", ")}`);
  return path.join(into, folder);
}

// ---- processes ----------------------------------------------------------------------------------------

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** A child's whole environment (nothing of this process's is passed on unless named): production, as a server runs. */
type Environment = NodeJS.ProcessEnv & { NODE_ENV: "production" };

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Started {
  child: ChildProcess;
  exited: Promise<Exit>;
}

/** Starts a process, its output appended to `logFile` (and echoed with a prefix when `echo`). */
function startProcess(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: Environment; logFile: string; echo: boolean },
): Started {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  const log = fs.createWriteStream(options.logFile, { flags: "a" });
  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = "";
    stream.on("data", (chunk: Buffer) => {
      log.write(chunk);
      if (!options.echo) return;
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
  // "close" comes once the process has ended and its output is all read (a crash's last words included).
  const exited = new Promise<Exit>((resolve) =>
    child.once("close", (code, signal) => {
      running.delete(child);
      log.end(`\n[cluster] ${name} (pid ${child.pid}) ended: ${signal ? `signal ${signal}` : `exit ${code}`}\n`);
      resolve({ code, signal });
    }),
  );
  return { child, exited };
}

// ---- the database -------------------------------------------------------------------------------------

/** The PostgreSQL role that creates the cluster's database: CLUSTER_DATABASE_URL, TEST_DATABASE_URL, else local postgres. */
export function adminDatabaseUrl(): string {
  return process.env.CLUSTER_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function createDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `kyc_cluster_${randomBytes(6).toString("hex")}`;
  await withClient(adminUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

// ---- the cluster ----------------------------------------------------------------------------------------

export interface Instance {
  name: string;
  port: number;
  /** http://127.0.0.1:<port>, straight to the instance (not through nginx). */
  url: string;
  /** Its log (every start appends). */
  logFile: string;
  /** The running process's id, undefined while stopped. */
  pid(): number | undefined;
  /** When the running process started (Date.now()). */
  startedAt(): number;
  /** Starts it and waits until it answers ready (GET /api/health?ready, 200). */
  start(): Promise<void>;
  /** Sends `signal` and waits for the process to end. */
  stop(signal: NodeJS.Signals): Promise<Exit>;
  /** Its metrics (GET /api/metrics with the cluster's token). */
  metrics(): Promise<string>;
}

export interface Cluster {
  /** nginx's address, the dashboard's public one (NEXTAUTH_URL). */
  base: string;
  sandbox: string;
  databaseUrl: string;
  instances: Instance[];
  /** The folder holding the unpacked release, logs, data folders and nginx's configuration. */
  dir: string;
  release: string;
  /** The environment every instance runs with (the secrets included): a CLI run against the cluster needs it. */
  env: NodeJS.ProcessEnv;
  /** nginx's access log: request, status, the instance(s) tried and their statuses. */
  accessLog: string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** More environment for every instance (after the cluster's own). */
  env?: Record<string, string>;
  /** Echo every process's output, prefixed with its name (`npm run cluster`). */
  echo?: boolean;
  log?: (line: string) => void;
  /** An archive to run; default: `npm run package`. */
  archive?: string;
}

const secret = () => randomBytes(36).toString("base64url");

/** Starts the whole deployment and waits until nginx answers through both instances. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[cluster] ${line}\n`));
  const echo = options.echo ?? false;
  const nginxBin = ensureNginx(log);
  const archive = options.archive ?? packageArchive();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-cluster-"));
  // nginx's workers run as nobody: they must reach their temporary folders.
  fs.chmodSync(dir, 0o755);
  const cleanups: Array<() => Promise<unknown> | unknown> = [() => fs.rmSync(dir, { recursive: true, force: true })];
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        log(`cleaning up: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  try {
    fs.mkdirSync(path.join(dir, "release"));
    const release = unpackArchive(archive, path.join(dir, "release"));
    log(`unpacked ${path.basename(archive)} into ${release}`);

    const database = await createDatabase(adminDatabaseUrl());
    cleanups.push(() => database.drop());
    const [nginxPort, sandboxPort, ...instancePorts] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const base = `http://localhost:${nginxPort}`;
    const sandbox = `http://127.0.0.1:${sandboxPort}`;
    const webhookSecret = secret();
    const baseEnv: Environment = {
      NODE_ENV: "production",
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? os.tmpdir(),
      LANG: "C.UTF-8",
      ...blankAppEnv(),
    };

    // The sandbox (from the source tree: it stands for the service, it is not part of the release) sends its
    // webhooks through nginx, signed with the secret every instance holds.
    const sandboxLog = path.join(dir, "sandbox.log");
    const sandboxProcess = startProcess("sandbox", process.execPath, ["--import", "tsx", path.join(ROOT, "sandbox", "server.ts")], {
      cwd: ROOT,
      env: {
        ...baseEnv,
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_HOST: "127.0.0.1",
        SANDBOX_DATA_DIR: path.join(dir, "sandbox"),
        SANDBOX_WEBHOOK_URL: `${base}/api/webhooks/verification-events`,
        SANDBOX_WEBHOOK_SECRET: webhookSecret,
      },
      logFile: sandboxLog,
      echo,
    });
    cleanups.push(async () => {
      sandboxProcess.child.kill("SIGTERM");
      await sandboxProcess.exited;
    });
    await waitFor("the sandbox", async () => (await fetch(`${sandbox}/sandbox/health`)).ok, 60_000);

    const env: Environment = {
      ...baseEnv,
      DATABASE_URL: database.url,
      SANDBOX_URL: sandbox,
      NEXTAUTH_URL: base,
      // nginx connects from the loopback: its X-Forwarded-For is believed, anyone else's is not.
      TRUSTED_PROXIES: "127.0.0.1",
      NEXTAUTH_SECRET: secret(),
      MEDIA_SEAL_SECRET: secret(),
      AUDIT_HASH_SECRET: secret(),
      DATA_ENCRYPTION_SECRET: secret(),
      WEBHOOK_SIGNING_SECRET: webhookSecret,
      METRICS_TOKEN: secret(),
      AUDIT_HEAD_FILE: path.join(dir, "audit-head.json"),
      ...options.env,
    };

    const instances: Instance[] = instancePorts.map((port, index) => {
      const name = `instance-${String.fromCharCode(97 + index)}`;
      const logFile = path.join(dir, `${name}.log`);
      let current: (Started & { startedAt: number }) | undefined;
      const instance: Instance = {
        name,
        port,
        url: `http://127.0.0.1:${port}`,
        logFile,
        pid: () => current?.child.pid,
        startedAt: () => current?.startedAt ?? 0,
        async start() {
          if (current) throw new Error(`${name} is already running`);
          const started = startProcess(name, process.execPath, ["--max-old-space-size=192", path.join(release, "start.mjs")], {
            cwd: release,
            env: { ...env, HOST: "127.0.0.1", PORT: String(port), DATA_DIR: path.join(dir, name) },
            logFile,
            echo,
          });
          current = { ...started, startedAt: Date.now() };
          let gone = false;
          void started.exited.then(() => (gone = true));
          await waitFor(`${name} to answer ready on ${instance.url}`, async () => {
            if (gone) throw new Error(`${name} stopped while starting (see ${logFile})`);
            return (await fetch(`${instance.url}/api/health?ready`)).status === 200;
          });
        },
        async stop(signal) {
          if (!current) throw new Error(`${name} is not running`);
          const { child, exited } = current;
          child.kill(signal);
          const exit = await exited;
          current = undefined;
          return exit;
        },
        async metrics() {
          const response = await fetch(`${instance.url}/api/metrics`, { headers: { authorization: `Bearer ${env.METRICS_TOKEN}` } });
          if (!response.ok) throw new Error(`${name}'s metrics: ${response.status}`);
          return response.text();
        },
      };
      cleanups.push(async () => {
        const pid = instance.pid();
        if (!pid) return;
        // The graceful stop, and SIGKILL past its grace (the same process: the pid read before it was asked to stop).
        const timer = setTimeout(() => {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // Gone meanwhile.
          }
        }, 40_000);
        await instance.stop("SIGTERM").finally(() => clearTimeout(timer));
      });
      return instance;
    });
    // Both at once, as a deployment starts them: the migrations run once, under PostgreSQL's advisory lock.
    await Promise.all(instances.map((instance) => instance.start()));

    const proxySettings = path.join(release, "deploy", "nginx", "kyc-backoffice-proxy.conf");
    for (const name of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"])
      fs.mkdirSync(path.join(dir, "nginx", name), { recursive: true, mode: 0o777 });
    for (const name of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) fs.chmodSync(path.join(dir, "nginx", name), 0o777);
    const nginxConf = path.join(dir, "nginx", "nginx.conf");
    fs.writeFileSync(
      nginxConf,
      nginxConfig(
        path.join(dir, "nginx"),
        nginxPort,
        instances.map((instance) => instance.port),
        proxySettings,
      ),
    );
    const nginxArgs = ["-p", path.join(dir, "nginx"), "-e", path.join(dir, "nginx", "error.log"), "-c", nginxConf];
    const check = spawnSync(nginxBin, [...nginxArgs, "-t"], { encoding: "utf8" });
    if (check.status !== 0) throw new Error(`nginx refused its configuration:\n${check.stderr}`);
    const nginx = startProcess("nginx", nginxBin, nginxArgs, {
      cwd: dir,
      env: baseEnv,
      logFile: path.join(dir, "nginx", "output.log"),
      echo,
    });
    cleanups.push(async () => {
      nginx.child.kill("SIGTERM");
      await nginx.exited;
    });
    await waitFor("nginx", async () => (await fetch(`${base}/api/health`)).ok, 30_000);
    log(
      `nginx ${base} → ${instances.map((instance) => instance.url).join(", ")}; sandbox ${sandbox}; database ${new URL(database.url).pathname.slice(1)}`,
    );

    return {
      base,
      sandbox,
      databaseUrl: database.url,
      instances,
      dir,
      release,
      env,
      accessLog: path.join(dir, "nginx", "access.log"),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

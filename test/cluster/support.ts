// What the cluster tests (test/cluster/*.test.ts) share: the archive, PostgreSQL's presence, the figures they report,
// and the looks at the running deployment (nginx's access log, the sandbox, the instances' logs, the live events).
import fs from "node:fs";
import path from "node:path";

import pg from "pg";

import { CORE_API_KEY, ROOT } from "@/scripts/bench-system";
import { adminDatabaseUrl, packageArchive, waitFor, type Cluster, type Instance } from "@/scripts/cluster-system";

// ---- the archive, PostgreSQL ------------------------------------------------------------------------

let archive: string | undefined;
/** The archive of `npm run package` (built when stale, kept when up to date), once per file. */
export const theArchive = () => (archive ??= packageArchive());

/** Whether the role that creates the cluster's database answers. */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---- figures ------------------------------------------------------------------------------------------

const FIGURES_FILE = path.join(ROOT, "test-results", "cluster-figures.json");

interface Figure {
  /** The suite's name as benchmarks.md shows it, naming the database measured (scripts/bench-report.ts). */
  suite: string;
  case: string;
  value: number;
  unit: "s" | "count" | "MiB";
  note?: string;
}
const figures: Figure[] = [];

/** The deployment on PostgreSQL (cluster.test.ts), the archive alone on the embedded database (archive.test.ts). */
export const ON_POSTGRES = "cluster (PostgreSQL)";
export const ON_PGLITE = "cluster (PGlite)";

/** One measured figure, as an `npm run bench` row (scripts/bench-cluster.ts reads them back). */
export function figure(suite: string, name: string, value: number, unit: Figure["unit"], note?: string): void {
  figures.push({ suite, case: name, value, unit, ...(note ? { note } : {}) });
}

/** Prints this file's figures and merges them into test-results/cluster-figures.json (a row of the same name replaced). */
export function writeFigures(): void {
  if (figures.length === 0) return;
  const kept: Figure[] = fs.existsSync(FIGURES_FILE)
    ? (JSON.parse(fs.readFileSync(FIGURES_FILE, "utf8")) as { figures: Figure[] }).figures
    : [];
  const merged = [...kept.filter((row) => !figures.some((mine) => mine.case === row.case)), ...figures];
  fs.mkdirSync(path.dirname(FIGURES_FILE), { recursive: true });
  fs.writeFileSync(FIGURES_FILE, `${JSON.stringify({ at: new Date().toISOString(), figures: merged }, null, 2)}\n`);
  const lines = figures.map(
    (row) =>
      `  ${row.case}: ${Number.isInteger(row.value) ? row.value : row.value.toFixed(2)} ${row.unit}${row.note ? ` (${row.note})` : ""}`,
  );
  console.log(`\ncluster figures (${path.relative(ROOT, FIGURES_FILE)}):\n${lines.join("\n")}\n`);
}

// ---- looks at the deployment ------------------------------------------------------------------------------

/** Waits until nginx has sent a request to `instance` since it started and got a 2xx: it takes the load again. */
export function servedThroughNginx(cluster: Cluster, instance: Instance) {
  const since = instance.startedAt();
  return waitFor(`nginx to send requests to ${instance.name} again`, () =>
    fs
      .readFileSync(cluster.accessLog, "utf8")
      .split("\n")
      .some((line) => {
        const [msec, , , status] = line.split(" ");
        const upstreams = /upstream=(\S+(?:, \S+)*) upstream_status/.exec(line)?.[1]?.split(", ") ?? [];
        return Number(msec) * 1000 >= since && upstreams.at(-1) === `127.0.0.1:${instance.port}` && /^2/.test(status ?? "");
      }),
  );
}

/**
 * The live events a member may be sent after `after` (lib/api/live-stream.ts mayReceive, for a member who reads cases
 * and verifications): their ids and when each was published.
 */
export async function visibleEventsAfter(db: pg.Client, after: number, memberId: string): Promise<Map<number, number>> {
  const { rows } = await db.query<{ id: string; at: Date }>(
    `select id, at from live_events where id > $1
       and (split_part(topic, '.', 1) in ('case', 'verification') or (topic = 'notification' and user_id = $2))`,
    [after, memberId],
  );
  return new Map(rows.map((row) => [Number(row.id), row.at.getTime()]));
}

/** Changes verifications' status at the sandbox, one after another, until stopped: each is a webhook through nginx, then live events. */
export async function verificationChanges(sandbox: string) {
  const response = await fetch(`${sandbox}/core/public/validations-persons?per_page=20&page=1`, { headers: { "X-API-Key": CORE_API_KEY } });
  const ids = ((await response.json()) as { data: Array<{ public_id: string }> }).data.map((item) => item.public_id);
  let running = true;
  let changes = 0;
  const loop = (async () => {
    for (let turn = 0; running; turn += 1) {
      const changed = await fetch(`${sandbox}/sandbox/verifications/${ids[turn % ids.length]}/status`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status: turn % 2 === 0 ? "review" : "approved" }),
      });
      if (changed.ok) changes += 1;
      // A change every 400 ms: a steady stream of events, not a benchmark of the webhook receiver.
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return changes;
    },
  };
}

/** Every webhook the sandbox sent, and the attempts that failed (no answer, or not 2xx). */
export async function webhookDeliveries(sandbox: string) {
  const response = await fetch(`${sandbox}/sandbox/webhooks/deliveries`);
  const { deliveries } = (await response.json()) as { deliveries: Array<{ status: string; attempts: Array<{ status: number | null }> }> };
  const failedAttempts = deliveries
    .flatMap((delivery) => delivery.attempts)
    .filter((attempt) => attempt.status === null || attempt.status >= 300);
  return { deliveries, failedAttempts };
}

/** How an instance's last graceful stop went, from its log (lib/runtime/shutdown.ts `shutdown_done`). */
export function lastShutdown(instance: Instance): { durationMs: number; quiet: boolean } {
  const line = fs
    .readFileSync(instance.logFile, "utf8")
    .split("\n")
    .filter((entry) => entry.includes('"event":"shutdown_done"'))
    .at(-1);
  if (!line) throw new Error(`${instance.name} logged no shutdown_done`);
  return JSON.parse(line) as { durationMs: number; quiet: boolean };
}

// The deployment of several instances (`npm run bench -- cluster`; not a goal suite): runs the cluster test
// (test/cluster/, `npm run test:cluster`: the deployable archive as two instances behind nginx on PostgreSQL, rolling
// restarts, a killed instance, the jobs) and reports the figures it measured: requests during the restarts, failed
// requests, events replayed, jobs run per schedule. The test asserts; this only reports, and reports nothing when the
// test did not pass (its figures would describe a failure).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import type { BenchRow } from "./bench";
import { progress, ROOT } from "./bench-system";

const suite = "cluster";
const FIGURES_FILE = path.join(ROOT, "test-results", "cluster-figures.json");

export default async function benchCluster(): Promise<BenchRow[]> {
  fs.rmSync(FIGURES_FILE, { force: true });
  progress(suite, "running the cluster test (npm run test:cluster, about four minutes)…");
  const test = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "vitest.cluster.config.ts"],
    {
      cwd: ROOT,
      // Its output goes to stderr: stdout is the table's.
      stdio: ["ignore", process.stderr, process.stderr],
    },
  );
  if (test.status !== 0) throw new Error(`the cluster test failed (status ${test.status ?? test.signal}): no figures to report`);
  // Each row names its suite with the database it measured: the deployment on PostgreSQL, the archive alone on PGlite.
  return (JSON.parse(fs.readFileSync(FIGURES_FILE, "utf8")) as { figures: BenchRow[] }).figures;
}

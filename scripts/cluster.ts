// `npm run cluster`: a deployment of two instances behind nginx on this machine, from the archive of `npm run package`
// (scripts/cluster-system.ts): the sandbox, a fresh PostgreSQL database (CLUSTER_DATABASE_URL or TEST_DATABASE_URL
// names the role that creates it, default postgres://postgres@127.0.0.1:5432/postgres), two instances from the unpacked
// archive and nginx with the archive's proxy settings. Up until Ctrl-C; then every process stops and the database is
// dropped. `npm run test:cluster` drives the same deployment (test/cluster/).
//
//   npm run cluster               logs go to files (their paths are printed)
//   npm run cluster -- --verbose  every process's output here too, prefixed with its name
import { DEMO } from "./bench-system";
import { startCluster } from "./cluster-system";

async function main(): Promise<void> {
  const cluster = await startCluster({ echo: process.argv.includes("--verbose") });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log("\nstopping: instances (graceful), nginx, the sandbox; dropping the database…");
    await cluster.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  console.log(
    [
      "",
      `Dashboard (nginx):  ${cluster.base}`,
      ...cluster.instances.map((instance) => `  ${instance.name}:       ${instance.url}  (pid ${instance.pid()}, log ${instance.logFile})`),
      `Sandbox:            ${cluster.sandbox}`,
      `Database:           ${new URL(cluster.databaseUrl).pathname.slice(1)} (dropped at the end)`,
      `Release:            ${cluster.release}`,
      `nginx access log:   ${cluster.accessLog}`,
      "Demo accounts (sandbox only):",
      `  admin    ${DEMO.admin.email}    / ${DEMO.admin.password}`,
      `  analyst  ${DEMO.analyst.email}  / ${DEMO.analyst.password}`,
      "Try `kill -TERM <pid>` on an instance: nginx keeps serving through the other. Ctrl-C stops everything.",
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

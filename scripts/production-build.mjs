// The production build that the benchmarks (scripts/bench-system.ts) and the deployable archive
// (scripts/package.mjs) start from: `next build` into a dist folder, made again only when a source changed since.
// next.config.mjs builds with `output: "standalone"`, so every build also holds the standalone server
// (<distDir>/standalone/server.js) that the archive ships.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");

/** What a production build is made of: a change to any of these makes a build of before it stale. */
const BUILD_SOURCES = [
  "app",
  "components",
  "lib",
  "messages",
  "public",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "package-lock.json",
];

/** The newest modification time under `entry` (a file or a folder), 0 when it does not exist. */
export function newestMtime(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** Why the build in `distDir` cannot be used, or undefined when it is there, standalone included, and newer than every source. */
export function staleBuild(distDir) {
  const buildId = path.join(ROOT, distDir, "BUILD_ID");
  if (!fs.existsSync(buildId)) return "no production build";
  if (!fs.existsSync(path.join(ROOT, distDir, "standalone", "server.js"))) return "no standalone server in the build";
  const built = fs.statSync(buildId).mtimeMs;
  const changed = BUILD_SOURCES.find((source) => newestMtime(path.join(ROOT, source)) > built);
  return changed ? `${changed} changed since the production build` : undefined;
}

/**
 * Builds `distDir` when it has no build, or when a source (BUILD_SOURCES) is newer than its BUILD_ID, so nothing
 * measures or ships stale code. `next build` adds its folder's type globs to tsconfig.json and points next-env.d.ts
 * at it: both files are put back as they were, a build is no reason to change the project's configuration. The
 * build's output goes to stderr (stdout may be a report's). Throws when the build fails.
 */
export function ensureProductionBuild({ distDir = ".next", log = (message) => process.stderr.write(`${message}\n`) } = {}) {
  const reason = staleBuild(distDir);
  if (reason === undefined) return;
  log(`${reason} in ${distDir}: building it (next build)…`);
  const kept = ["tsconfig.json", "next-env.d.ts"].map((name) => {
    const file = path.join(ROOT, name);
    return { file, text: fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined };
  });
  // Build workers never open a data folder (instrumentation.ts skips the build), but nothing should point at one.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-build-"));
  try {
    const build = spawnSync(process.execPath, [NEXT_BIN, "build"], {
      cwd: ROOT,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: distDir, DATA_DIR: dataDir },
      stdio: ["ignore", process.stderr, process.stderr],
    });
    if (build.status !== 0) throw new Error(`next build into ${distDir} failed (status ${build.status ?? build.signal})`);
  } finally {
    for (const { file, text } of kept) {
      if (text === undefined) continue;
      if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text) fs.writeFileSync(file, text);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

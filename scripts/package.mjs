#!/usr/bin/env node
// `npm run package`: the deployable archive, dist/kyc-backoffice-<version>-<commit>.tar.gz, which runs with `node`
// alone on a server without the source tree or dev dependencies (docs/operations.md "The deployable archive").
//
// It holds one folder, kyc-backoffice-<version>-<commit>/, with:
//   server.js, .next/, node_modules/   Next's standalone server and the packages it loads at run time (traced by the
//                                      build: PGlite's WebAssembly, pg, undici… stay outside the bundle,
//                                      next.config.mjs serverExternalPackages, and are copied here as files)
//   .next/static/, public/             the browser's assets
//   lib/db/migrations/                 the SQL migrations, applied by the server when it starts
//   start.mjs                          the start script (deploy/start.mjs): `node --max-old-space-size=192 start.mjs`
//   bin/                               the command-line tools (user-add.mjs, audit-verify.mjs, db-migrate.mjs…),
//                                      bundled: `node bin/user-add.mjs --email …` in this folder
//   deploy/                            the systemd unit, the nginx site and its proxy settings, an environment file
//   .env.example                       every variable
//
// The build is `next build` (standalone output is always on), made again only when a source changed since the last
// one (scripts/production-build.mjs): after `npm run build` or `npm test` the archive is put together in seconds, and
// an archive newer than the build and every file it holds is kept as it is.
//
//   node scripts/package.mjs             build when stale, then write the archive; prints its path last
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import * as esbuild from "esbuild";

import nextConfig from "../next.config.mjs";
import { ensureProductionBuild, newestMtime } from "./production-build.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST_DIR = ".next";
const OUT = path.join(ROOT, "dist");

/** The release the build was made from (next.config.mjs fixes it into the build: GET /api/health says the same). */
function builtRelease() {
  const files = JSON.parse(fs.readFileSync(path.join(ROOT, DIST_DIR, "required-server-files.json"), "utf8"));
  const { KYC_VERSION: version, KYC_COMMIT: commit } = files.config?.env ?? {};
  if (!version || !commit) throw new Error(`${DIST_DIR}/required-server-files.json names no release (KYC_VERSION, KYC_COMMIT)`);
  return { version, commit };
}

const copy = (from, to) => fs.cpSync(path.join(ROOT, from), to, { recursive: true, dereference: true, preserveTimestamps: true });

/** Puts the archive's folder together in `stage`. */
function assemble(stage) {
  copy(path.join(DIST_DIR, "standalone"), stage);
  // Next copies a project's .env files into the standalone folder: none of a developer's settings (or secrets) ships.
  for (const name of fs.readdirSync(stage)) if (name.startsWith(".env")) fs.rmSync(path.join(stage, name), { force: true });
  fs.rmSync(path.join(stage, DIST_DIR, "cache"), { recursive: true, force: true });
  copy(path.join(DIST_DIR, "static"), path.join(stage, DIST_DIR, "static"));
  copy("public", path.join(stage, "public"));
  // The build traces the migrations the server reads (lib/db/client.ts MIGRATIONS_FOLDER); copied whole all the same,
  // so the archive never depends on what a tracer happened to see.
  fs.rmSync(path.join(stage, "lib", "db", "migrations"), { recursive: true, force: true });
  copy(path.join("lib", "db", "migrations"), path.join(stage, "lib", "db", "migrations"));
  copy(path.join("deploy", "start.mjs"), path.join(stage, "start.mjs"));
  fs.chmodSync(path.join(stage, "start.mjs"), 0o755);
  copy("deploy", path.join(stage, "deploy"));
  fs.rmSync(path.join(stage, "deploy", "start.mjs"));
  copy(".env.example", path.join(stage, ".env.example"));
}

/** What goes into the archive besides the build: a change to any of these makes an archive of before it stale. */
const PACKAGE_SOURCES = ["deploy", "lib", "scripts", "public", ".env.example", "package-lock.json"];

/** The archive is there and newer than the build and every other file it holds. */
function upToDate(archive) {
  if (!fs.existsSync(archive)) return false;
  const made = fs.statSync(archive).mtimeMs;
  const inputs = [path.join(DIST_DIR, "BUILD_ID"), ...PACKAGE_SOURCES].map((entry) => newestMtime(path.join(ROOT, entry)));
  return inputs.every((mtime) => mtime < made);
}

/** The command-line tools the archive ships as bin/<name>.mjs (each `npm run <name>` in the source tree). */
const COMMANDS = [
  "db-migrate",
  "user-add",
  "audit-verify",
  "audit-prune",
  "keys-rotate",
  "keys-reseal",
  "retention-run",
  "db-backup",
  "db-restore",
];

/**
 * The command-line tools, bundled with esbuild as the server is by Next: the project's code and its packages in, under
 * the react-server condition (`server-only` is then empty), except the packages the server keeps outside its bundle
 * (next.config.mjs serverExternalPackages), which they load from the archive's node_modules like the server does.
 * Shared code goes into chunks beside them. They read the migrations from the working folder: run them from the
 * release's folder (`node bin/user-add.mjs --email …`).
 */
async function bundleCommands(stage) {
  await esbuild.build({
    entryPoints: Object.fromEntries(COMMANDS.map((name) => [name, path.join(ROOT, "scripts", `${name}.ts`)])),
    outdir: path.join(stage, "bin"),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: ["react-server"],
    tsconfig: path.join(ROOT, "tsconfig.json"),
    external: nextConfig.serverExternalPackages,
    // Packages written for CommonJS call `require`, which an ES module lacks.
    banner: { js: 'import { createRequire as kycCreateRequire } from "node:module"; const require = kycCreateRequire(import.meta.url);' },
    logLevel: "warning",
  });
}

async function main() {
  ensureProductionBuild({ distDir: DIST_DIR });
  const { version, commit } = builtRelease();
  const name = `kyc-backoffice-${version}-${commit}`;
  fs.mkdirSync(OUT, { recursive: true });
  const stage = path.join(OUT, name);
  const archive = path.join(OUT, `${name}.tar.gz`);
  if (upToDate(archive)) {
    process.stderr.write(`${name} is up to date (newer than the build and the files it holds)\n`);
    console.log(archive);
    return;
  }
  fs.rmSync(stage, { recursive: true, force: true });
  fs.rmSync(archive, { force: true });
  try {
    assemble(stage);
    await bundleCommands(stage);
    // Owned by nobody in particular: unpacked by root, the files are root's, not a build user's id.
    const tar = spawnSync(
      "tar",
      ["--create", "--gzip", "--owner=0", "--group=0", "--numeric-owner", "--file", archive, "--directory", OUT, name],
      {
        stdio: "inherit",
      },
    );
    if (tar.status !== 0) throw new Error(`tar failed (status ${tar.status ?? tar.signal})`);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
  const mib = (fs.statSync(archive).size / 1024 / 1024).toFixed(1);
  process.stderr.write(`packaged ${name} (${mib} MiB): unpack it and run \`node --max-old-space-size=192 start.mjs\` in its folder\n`);
  console.log(archive);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

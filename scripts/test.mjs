#!/usr/bin/env node
// `npm test`: every test. The static checks (Prettier, tsc, ESLint with the layers' rules, knip), Vitest (lib,
// route handlers, sandbox, database on PGlite and, with TEST_DATABASE_URL, PostgreSQL; components under jsdom), then a production build and Playwright against it and the sandbox,
// then the deployment of several instances from the deployable archive (test/cluster/: two instances behind nginx).
// Ends with a summary: the tests that passed only on a retry (flaky, counted as failed), the skipped ones
// and why (the PostgreSQL suites when TEST_DATABASE_URL is unset), then one line "N passed, N failed"
// summing every suite. Exits non-zero on any failure, a flaky test included.
//
//   node scripts/test.mjs               everything (`npm run test:cluster` runs the cluster test alone)
//   node scripts/test.mjs --unit-only   Vitest only
//   node scripts/test.mjs --e2e-only    build + Playwright only
//   node scripts/test.mjs --e2e-only --oidc-only   build + the single sign-on suite only
//
// The single sign-on suite (e2e/oidc/, playwright.oidc.config.ts) runs after the main one, twice, each time
// against a fresh test OpenID provider (test/oidc-provider/) on a random port: conformant (claims from
// userinfo), then with the email in the ID token. It runs on full runs and with --oidc-only, not when
// other Playwright arguments pick specs.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { ensureChromium } from "./browser.mjs";
import { checksSuite, playwrightSuite, suiteThatDidNotRun, summaryLines, vitestSuite } from "./test-summary.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Our own flags are --unit-only and --e2e-only; every other argument goes to Playwright
// (e.g. `npm run test:e2e -- e2e/auth.spec.ts --grep sign-out`).
const OWN_FLAGS = ["--unit-only", "--e2e-only", "--oidc-only"];
const args = process.argv.slice(2);
const flags = new Set(args.filter((arg) => OWN_FLAGS.includes(arg)));
const playwrightArgs = args.filter((arg) => !OWN_FLAGS.includes(arg));
const runUnit = !flags.has("--e2e-only") && !flags.has("--oidc-only");
const runE2e = !flags.has("--unit-only");
const runMainE2e = !flags.has("--oidc-only");
const runOidcE2e = flags.has("--oidc-only") || playwrightArgs.length === 0;
const resultsDir = path.join(root, "test-results");
fs.mkdirSync(resultsDir, { recursive: true });

const bin = (pkg, file) => path.join(root, "node_modules", pkg, file);
const run = (args, env = {}) =>
  spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { NEXT_TELEMETRY_DISABLED: "1", ...process.env, ...env } })
    .status ?? 1;

/** Per suite: what passed, failed, passed only on a retry, was skipped and why (scripts/test-summary.mjs). */
const suites = [];
const readReport = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined);

// Find (or install) the browser first, so a missing one fails in seconds rather than after the unit tests.
const chromium = runE2e ? ensureChromium() : undefined;

if (runUnit) {
  // The static checks first: formatting, types, the layers' lint and unused code (knip: an export, file or
  // dependency nothing uses), so a drift fails here, not in review.
  const checks = [
    ["prettier --check", [bin("prettier", "bin/prettier.cjs"), "--check", "--log-level", "warn", "."]],
    ["tsc --noEmit", [bin("typescript", "bin/tsc"), "--noEmit", "-p", "."]],
    ["eslint", [bin("eslint", "bin/eslint.js"), "."]],
    ["knip", [bin("knip", "bin/knip.js"), "--no-progress", "--treat-config-hints-as-errors"]],
  ].map(([name, command]) => {
    console.log(`> ${name}`);
    return { name, status: run(command) };
  });
  suites.push(checksSuite(checks));

  const report = path.join(resultsDir, "vitest-summary.json");
  fs.rmSync(report, { force: true });
  const status = run([bin("vitest", "vitest.mjs"), "run", "--reporter=default", "--reporter=./scripts/vitest-summary.mjs"], {
    VITEST_SUMMARY_FILE: report,
  });
  suites.push(vitestSuite(readReport(report), status));
}

/** One Playwright run, counted in the summary. */
function playwright(configArgs, env, label) {
  const report = path.join(resultsDir, `playwright-${label}.json`);
  fs.rmSync(report, { force: true });
  const status = run([bin("@playwright/test", "cli.js"), "test", ...configArgs, "--reporter=list,json", ...playwrightArgs], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    PLAYWRIGHT_CHROMIUM_PATH: chromium,
    ...env,
  });
  suites.push(playwrightSuite(readReport(report), status, `playwright ${label}`));
}

/** Starts the test OpenID provider and resolves with its issuer once it listens. */
function startOidcProvider(env) {
  const child = spawn(process.execPath, ["--import", "tsx", "test/oidc-provider/main.ts"], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stdout.on("data", (chunk) => {
      seen += chunk.toString();
      const issuer = /listening on (http:\/\/\S+)/.exec(seen)?.[1];
      if (issuer) resolve({ issuer, stop: () => child.kill("SIGTERM") });
    });
    child.once("exit", (code) => reject(new Error(`the test OpenID provider stopped (${code}) before it listened`)));
  });
}

if (runE2e) {
  // A fresh database for the browser tests on every run.
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(root, ".test-data", "e2e");
  fs.rmSync(dataDir, { recursive: true, force: true });
  // The audit head's copy beside it (lib/audit-trail/server/head-file.ts) belongs to the database just removed.
  fs.rmSync(`${dataDir}-audit-head.json`, { force: true });
  const build = run([bin("next", "dist/bin/next"), "build"]);
  if (build !== 0) {
    console.error("next build failed: the browser tests cannot run.");
    suites.push(suiteThatDidNotRun("next build", "next build failed: the browser tests did not run"));
  } else {
    if (runMainE2e) playwright([], { E2E_DATA_DIR: dataDir }, "main");
    if (runOidcE2e) {
      for (const claims of ["userinfo", "id-token"]) {
        const oidcDataDir = path.join(root, ".test-data", `e2e-oidc-${claims}`);
        fs.rmSync(oidcDataDir, { recursive: true, force: true });
        fs.rmSync(`${oidcDataDir}-audit-head.json`, { force: true });
        const clientSecret = randomBytes(24).toString("hex");
        const appUrl = `http://localhost:${process.env.E2E_PORT ?? 3100}`;
        try {
          const provider = await startOidcProvider({
            OIDC_TEST_APP_URL: appUrl,
            OIDC_TEST_CLIENT_SECRET: clientSecret,
            OIDC_TEST_CLAIMS: claims,
          });
          try {
            playwright(
              ["--config", "playwright.oidc.config.ts"],
              {
                E2E_OIDC_DATA_DIR: oidcDataDir,
                OIDC_TEST_ISSUER: provider.issuer,
                OIDC_TEST_CLIENT_SECRET: clientSecret,
                OIDC_TEST_CLAIMS: claims,
              },
              `oidc-${claims}`,
            );
          } finally {
            provider.stop();
          }
        } catch (error) {
          console.error(String(error));
          suites.push(suiteThatDidNotRun(`playwright oidc-${claims}`, String(error)));
        }
      }
    }
  }
}

// The deployment of several instances (test/cluster/, vitest.cluster.config.ts): the archive of `npm run package` (from
// the build above), a PostgreSQL database, two instances and nginx. On full runs, after the browser tests.
if (runUnit && runE2e && playwrightArgs.length === 0) {
  const report = path.join(resultsDir, "vitest-cluster-summary.json");
  fs.rmSync(report, { force: true });
  const status = run(
    [
      bin("vitest", "vitest.mjs"),
      "run",
      "--config",
      "vitest.cluster.config.ts",
      "--reporter=default",
      "--reporter=./scripts/vitest-summary.mjs",
    ],
    { VITEST_SUMMARY_FILE: report },
  );
  suites.push(vitestSuite(readReport(report), status, "cluster"));
}

const { lines, failed } = summaryLines(suites, { postgresExpected: runUnit && !process.env.TEST_DATABASE_URL });
console.log(`\n${lines.join("\n")}`);
process.exit(failed === 0 ? 0 : 1);

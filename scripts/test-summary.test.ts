import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { POSTGRES_SKIP_REASON as DECLARED_REASON } from "@/test/db";

import {
  checksSuite,
  playwrightSuite,
  POSTGRES_SKIP_REASON,
  summaryLines,
  vitestSuite,
  type VitestSummaryReport,
} from "./test-summary.mjs";

/*
 * `npm test`'s summary (scripts/test.mjs): a test that passed only on a retry is counted as failed and
 * named; skipped tests are counted with their reason; the PostgreSQL path not running is said; a suite
 * whose report is missing or disagrees with its exit status is a failure.
 */

const ROOT = path.resolve(import.meta.dirname, "..");

function playwrightTest(status: string, results: Array<{ retry: number; status: string }>, annotations: unknown[] = []) {
  return { projectName: "chromium", status, results, annotations };
}

/** A Playwright JSON report: one file, one describe block, the given tests, and stats as Playwright counts them. */
function playwrightReport(tests: Record<string, ReturnType<typeof playwrightTest>>, stats?: Record<string, number>) {
  const specs = Object.entries(tests).map(([title, test], index) => ({ title, file: "auth.spec.ts", line: 10 + index, tests: [test] }));
  const count = (status: string) => Object.values(tests).filter((test) => test.status === status).length;
  return {
    suites: [{ title: "auth.spec.ts", file: "auth.spec.ts", specs: [], suites: [{ title: "sign-in", file: "auth.spec.ts", specs }] }],
    errors: [],
    stats: stats ?? { expected: count("expected"), unexpected: count("unexpected"), flaky: count("flaky"), skipped: count("skipped") },
  };
}

/** Vitest run for real on one file of `lines`, with the summary reporter: its report and exit status. */
function realVitestRun(file: string, lines: string[], args: string[] = []): { report: VitestSummaryReport; status: number } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "summary-"));
  try {
    fs.writeFileSync(path.join(folder, file), lines.join("\n"));
    const output = path.join(folder, "summary.json");
    const run = spawnSync(
      process.execPath,
      [
        path.join(ROOT, "node_modules/vitest/vitest.mjs"),
        "run",
        "--root",
        folder,
        "--globals",
        ...args,
        `--reporter=${path.join(ROOT, "scripts/vitest-summary.mjs")}`,
      ],
      { cwd: folder, env: { ...process.env, VITEST_SUMMARY_FILE: output }, encoding: "utf8" },
    );
    return { report: JSON.parse(fs.readFileSync(output, "utf8")) as VitestSummaryReport, status: run.status ?? 1 };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

const vitestReport = (changes: Partial<VitestSummaryReport> = {}): VitestSummaryReport => ({
  passed: 3,
  failed: [],
  flaky: [],
  skipped: [],
  notRun: [],
  loadErrors: [],
  unhandledErrors: [],
  ...changes,
});

describe("the test summary", () => {
  it("counts a Playwright test that passed only on its retry as failed, and names it on its own line", () => {
    const suite = playwrightSuite(
      playwrightReport({
        "signs in": playwrightTest("expected", [{ retry: 0, status: "passed" }]),
        "locks out": playwrightTest("flaky", [
          { retry: 0, status: "failed" },
          { retry: 1, status: "passed" },
        ]),
      }),
      0,
      "playwright main",
    );
    expect(suite).toMatchObject({ passed: 1, failed: 1 });
    const { lines, passed, failed } = summaryLines([suite], { postgresExpected: false });
    expect({ passed, failed }).toEqual({ passed: 1, failed: 1 });
    expect(lines).toContain("  flaky [playwright main]: auth.spec.ts:11 › sign-in › locks out (passed on retry 1)");
    expect(lines).toContain("  playwright main: 1 passed, 1 failed (1 flaky, counted as failed), 0 skipped");
    expect(lines.at(-1)).toBe("1 passed, 1 failed");
  });

  it("counts skipped Playwright tests with their reason, and a test that never started as a failure", () => {
    const suite = playwrightSuite(
      playwrightReport({
        "needs SSO": playwrightTest("skipped", [{ retry: 0, status: "skipped" }], [{ type: "skip", description: "no provider here" }]),
        "never started": playwrightTest("skipped", []),
        broken: playwrightTest("unexpected", [{ retry: 0, status: "failed" }]),
      }),
      1,
      "playwright main",
    );
    expect(suite.skipped).toEqual([{ name: "auth.spec.ts:10 › sign-in › needs SSO", reason: "no provider here" }]);
    expect(suite.failures).toEqual(["auth.spec.ts:12 › sign-in › broken"]);
    expect(suite.problems).toEqual(["1 test(s) did not run"]);
    expect(suite.failed).toBe(2);
    const { lines } = summaryLines([suite], { postgresExpected: false });
    expect(lines).toContain("  1 skipped");
    expect(lines).toContain("    1 playwright main: no provider here");
  });

  it("fails a run whose report disagrees with its own totals, whose report is missing, or that exited non-zero with nothing failed", () => {
    const disagreeing = playwrightSuite(
      playwrightReport(
        { ok: playwrightTest("expected", [{ retry: 0, status: "passed" }]) },
        { expected: 1, unexpected: 0, flaky: 1, skipped: 0 },
      ),
      0,
      "playwright main",
    );
    expect(disagreeing.failed).toBe(1);
    expect(playwrightSuite(undefined, 0, "playwright main")).toMatchObject({ failed: 1, problems: ["Playwright wrote no report"] });
    expect(playwrightSuite(playwrightReport({}), 1, "playwright main")).toMatchObject({
      failed: 1,
      problems: ["Playwright exited with 1"],
    });
    expect(vitestSuite(undefined, 1)).toMatchObject({ failed: 1 });
    expect(vitestSuite(vitestReport(), 1)).toMatchObject({ passed: 3, failed: 1, problems: ["Vitest exited with 1"] });
    expect(vitestSuite(vitestReport({ loadErrors: [{ file: "a.test.ts", message: "boom" }] }), 1).failed).toBe(1);
  });

  it("counts each static check, and names a failing one with its exit status", () => {
    const checks = checksSuite([
      { name: "prettier --check", status: 0 },
      { name: "tsc --noEmit", status: 2 },
      { name: "eslint", status: 0 },
    ]);
    expect(checks).toMatchObject({ label: "checks", passed: 2, failed: 1, failures: ["tsc --noEmit (exit 2)"] });
    const { lines, failed } = summaryLines([checks], { postgresExpected: false });
    expect(failed).toBe(1);
    expect(lines).toContain("  failed [checks]: tsc --noEmit (exit 2)");
  });

  it("says the PostgreSQL path did not run, and how many tests that skipped", () => {
    expect(POSTGRES_SKIP_REASON).toBe(DECLARED_REASON);
    const suite = vitestSuite(
      vitestReport({
        skipped: [
          { name: "db.test.ts › database layer on postgres (skipped: TEST_DATABASE_URL unset) > migrates", reason: POSTGRES_SKIP_REASON },
          { name: "db.test.ts › database layer on postgres (skipped: TEST_DATABASE_URL unset) > reads", reason: POSTGRES_SKIP_REASON },
          { name: "matrix.test.ts › GET x as admin (not run here: y)", reason: "not run here: y" },
        ],
      }),
      0,
    );
    const unset = summaryLines([suite], { postgresExpected: true });
    expect(unset.lines).toContain("  PostgreSQL path NOT RUN: TEST_DATABASE_URL is unset, 2 test(s) skipped");
    expect(unset.lines).toContain("  3 skipped");
    expect(unset.lines.at(-1)).toBe("3 passed, 0 failed");
    expect(summaryLines([suite], { postgresExpected: false }).lines.join("\n")).not.toContain("PostgreSQL path NOT RUN");
  });

  it("reads a real Vitest run: a failed hook is a failure named after it, and the tests it kept from running fail", () => {
    const { report, status } = realVitestRun("hooks.test.js", [
      'describe("on postgres", () => {',
      '  beforeAll(() => { throw new Error("database unreachable"); });',
      '  it("migrates", () => undefined);',
      '  it("reads", () => undefined);',
      "});",
      'describe("cleans up", () => {',
      '  afterAll(() => { throw new Error("could not drop"); });',
      '  it("writes", () => undefined);',
      "});",
      'it("passes", () => undefined);',
    ]);
    expect(report.skipped).toEqual([]);
    expect(report.failed.map((test) => test.name)).toEqual([
      "hooks.test.js › on postgres > migrates (did not run: beforeAll of hooks.test.js › on postgres failed)",
      "hooks.test.js › on postgres > reads (did not run: beforeAll of hooks.test.js › on postgres failed)",
    ]);
    const suite = vitestSuite(report, status);
    expect(suite).toMatchObject({ passed: 2, failed: 4 });
    const { lines } = summaryLines([suite], { postgresExpected: false });
    expect(lines).toContain("  failed [vitest]: beforeAll of hooks.test.js › on postgres failed: database unreachable");
    expect(lines).toContain("  failed [vitest]: afterAll of hooks.test.js › cleans up failed: could not drop");
    expect(lines.at(-1)).toBe("2 passed, 4 failed");
  });

  it("reads a real Vitest run: a test passing on its retry is flaky, a skipped one keeps the reason in its name", () => {
    const { report, status } = realVitestRun(
      "sample.test.js",
      [
        "let tries = 0;",
        'it("passes on the second try", () => { tries += 1; expect(tries).toBe(2); });',
        'it("passes", () => expect(1).toBe(1));',
        'describe.skip("on postgres (skipped: TEST_DATABASE_URL unset)", () => { it("reads", () => undefined); });',
      ],
      ["--retry=1"],
    );
    expect(report.flaky).toEqual([{ name: "sample.test.js › passes on the second try", retries: 1 }]);
    expect(report.skipped).toEqual([
      { name: "sample.test.js › on postgres (skipped: TEST_DATABASE_URL unset) > reads", reason: POSTGRES_SKIP_REASON },
    ]);
    const suite = vitestSuite(report, status);
    expect(suite).toMatchObject({ passed: 1, failed: 1 });
  });
});

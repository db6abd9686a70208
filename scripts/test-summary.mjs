// The counting behind `npm test`'s summary (scripts/test.mjs), kept apart so scripts/test-summary.test.ts
// can check it: a test that passed only on a retry is a failure and is named; skipped tests are counted with
// their reason; a suite that did not run, or ran without a report, is a failure too.

/** The reason the PostgreSQL suites carry in their name when TEST_DATABASE_URL is unset (test/db.ts). */
export const POSTGRES_SKIP_REASON = "skipped: TEST_DATABASE_URL unset";

export function emptySuite(label) {
  return { label, passed: 0, failed: 0, flaky: [], failures: [], skipped: [], problems: [] };
}

/** A suite that could not run at all: one failure, named. */
export function suiteThatDidNotRun(label, problem) {
  return { ...emptySuite(label), failed: 1, problems: [problem] };
}

/**
 * The static checks (formatting, types, lint), each a command's exit status: a check that fails is a failure
 * named after it.
 */
export function checksSuite(results, label = "checks") {
  const suite = emptySuite(label);
  for (const { name, status } of results) {
    if (status === 0) suite.passed += 1;
    else {
      suite.failed += 1;
      suite.failures.push(`${name} (exit ${status})`);
    }
  }
  return suite;
}

/**
 * Vitest, from the file scripts/vitest-summary.mjs writes (undefined when none was written) and the
 * process's exit status.
 */
export function vitestSuite(report, status, label = "vitest") {
  const suite = emptySuite(label);
  if (!report) {
    suite.problems.push("Vitest wrote no report");
  } else {
    suite.passed = report.passed;
    suite.flaky = report.flaky.map((test) => `${test.name} (passed on retry ${test.retries})`);
    suite.failures = [...report.failed.map((test) => test.name), ...report.notRun.map((test) => `${test.name} (did not run)`)];
    suite.skipped = report.skipped.map(({ name, reason }) => ({ name, reason }));
    suite.problems = [
      ...report.loadErrors.map((error) => `${error.file} failed to load: ${error.message}`),
      ...(report.hookErrors ?? []).map((error) => `${error.hook} failed: ${error.message}`),
      ...report.unhandledErrors.map((message) => `unhandled error: ${message}`),
    ];
  }
  suite.failed = suite.failures.length + suite.flaky.length + suite.problems.length;
  // Whatever the counts say, a run Vitest itself calls failed is a failure.
  if (status !== 0 && suite.failed === 0) {
    suite.problems.push(`Vitest exited with ${status}`);
    suite.failed = 1;
  }
  return suite;
}

/** Every spec of a Playwright JSON report, with the file and titles that name it. */
function* playwrightSpecs(suite, titles = []) {
  // The file's own suite is titled with the file name, which the spec's `file` already gives.
  const here = suite.title && suite.title !== suite.file ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) yield { spec, name: `${spec.file}:${spec.line} › ${[...here, spec.title].join(" › ")}` };
  for (const child of suite.suites ?? []) yield* playwrightSpecs(child, here);
}

/** One Playwright run, from its JSON report (undefined when none was written) and its exit status. */
export function playwrightSuite(report, status, label) {
  const suite = emptySuite(label);
  if (!report) {
    suite.problems.push("Playwright wrote no report");
  } else {
    let notRun = 0;
    for (const root of report.suites ?? []) {
      for (const { spec, name } of playwrightSpecs(root)) {
        for (const test of spec.tests) {
          if (test.status === "expected") suite.passed += 1;
          else if (test.status === "flaky") suite.flaky.push(`${name} (passed on retry ${test.results.at(-1)?.retry ?? "?"})`);
          else if (test.status === "unexpected") suite.failures.push(name);
          // Skipped on purpose (test.skip, with its reason), or never started (the run stopped first).
          else if (test.results.length === 0) notRun += 1;
          else suite.skipped.push({ name, reason: test.annotations?.find((item) => item.type === "skip")?.description || "skipped" });
        }
      }
    }
    if (notRun > 0) suite.problems.push(`${notRun} test(s) did not run`);
    for (const error of report.errors ?? []) suite.problems.push(`outside any test: ${String(error.message ?? "").split("\n")[0]}`);
    // The report's own totals must agree with the specs counted above.
    const { stats } = report;
    if (stats.expected !== suite.passed || stats.flaky !== suite.flaky.length || stats.unexpected !== suite.failures.length) {
      suite.problems.push(`the report's totals (${JSON.stringify(stats)}) differ from its specs`);
    }
  }
  // Passing only on a retry is a failure that happened to pass the second time.
  suite.failed = suite.failures.length + suite.flaky.length + suite.problems.length;
  if (status !== 0 && suite.failed === 0) {
    suite.problems.push(`Playwright exited with ${status}`);
    suite.failed = 1;
  }
  return suite;
}

/**
 * The summary's lines: per suite, each flaky test, failure and problem on its own line, the skipped tests by
 * reason, the PostgreSQL path when it did not run, and last the one line the README promises.
 */
export function summaryLines(suites, { postgresExpected }) {
  const passed = suites.reduce((total, suite) => total + suite.passed, 0);
  const failed = suites.reduce((total, suite) => total + suite.failed, 0);
  const lines = ["Summary"];
  for (const suite of suites) {
    const flaky = suite.flaky.length ? ` (${suite.flaky.length} flaky, counted as failed)` : "";
    lines.push(`  ${suite.label}: ${suite.passed} passed, ${suite.failed} failed${flaky}, ${suite.skipped.length} skipped`);
  }
  for (const suite of suites) for (const name of suite.flaky) lines.push(`  flaky [${suite.label}]: ${name}`);
  for (const suite of suites) for (const name of suite.failures) lines.push(`  failed [${suite.label}]: ${name}`);
  for (const suite of suites) for (const problem of suite.problems) lines.push(`  failed [${suite.label}]: ${problem}`);
  const byReason = new Map();
  for (const suite of suites) {
    for (const test of suite.skipped) {
      const key = `${suite.label}: ${test.reason}`;
      byReason.set(key, (byReason.get(key) ?? 0) + 1);
    }
  }
  lines.push(`  ${suites.reduce((total, suite) => total + suite.skipped.length, 0)} skipped`);
  for (const [reason, count] of byReason) lines.push(`    ${count} ${reason}`);
  if (postgresExpected) {
    const skipped = suites.flatMap((suite) => suite.skipped).filter((test) => test.reason === POSTGRES_SKIP_REASON).length;
    lines.push(`  PostgreSQL path NOT RUN: TEST_DATABASE_URL is unset, ${skipped} test(s) skipped`);
  }
  lines.push("", `${passed} passed, ${failed} failed`);
  return { lines, passed, failed };
}

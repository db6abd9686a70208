// A Vitest reporter for scripts/test.mjs: at the end of the run it writes VITEST_SUMMARY_FILE, one JSON object
// naming each test by outcome. Vitest's own JSON report has no field for a test that passed only on a retry;
// `testCase.diagnostic().flaky` has. A skipped test's reason is its `note`, else the one its name or its
// suite's name ends with (the PostgreSQL suites declared skipped in test/db.ts: "(skipped: …)").
import fs from "node:fs";
import path from "node:path";

/** A reason given at the end of a test's or suite's name: "… (skipped: TEST_DATABASE_URL unset)", "… (not run here: …)". */
const NAMED_REASON = /\(((?:skipped|not run here): .*)\)$/;

function namedReason(fullName) {
  for (const part of fullName.split(" > ").reverse()) {
    const match = NAMED_REASON.exec(part);
    if (match) return match[1];
  }
  return undefined;
}

export default class SummaryReporter {
  onTestRunEnd(testModules, unhandledErrors = [], reason) {
    const file = process.env.VITEST_SUMMARY_FILE;
    if (!file) return;
    const summary = { passed: 0, failed: [], flaky: [], skipped: [], notRun: [], loadErrors: [], unhandledErrors: [], reason };
    for (const testModule of testModules) {
      const where = testModule.relativeModuleId ?? testModule.moduleId;
      const errors = testModule.errors();
      if (errors.length > 0) summary.loadErrors.push({ file: where, message: errors.map((error) => error.message).join("; ") });
      for (const test of testModule.children.allTests()) {
        const name = `${where} › ${test.fullName}`;
        const result = test.result();
        if (result.state === "passed") {
          const diagnostic = test.diagnostic();
          if (diagnostic?.flaky) summary.flaky.push({ name, retries: diagnostic.retryCount });
          else summary.passed += 1;
        } else if (result.state === "failed") {
          summary.failed.push({ name });
        } else if (result.state === "skipped") {
          summary.skipped.push({ name, reason: result.note ?? namedReason(test.fullName) ?? test.options.mode });
        } else {
          // Queued or running when the run ended: it should have run and did not.
          summary.notRun.push({ name });
        }
      }
    }
    for (const error of unhandledErrors) summary.unhandledErrors.push(String(error?.message ?? error));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(summary, null, 2));
  }
}

// A Vitest reporter for scripts/test.mjs: at the end of the run it writes VITEST_SUMMARY_FILE, one JSON object
// naming each test by outcome. Vitest's own JSON report has no field for a test that passed only on a retry;
// `testCase.diagnostic().flaky` has. A skipped test's reason is its `note`, else the one its name or its
// suite's name ends with (the PostgreSQL suites declared skipped in test/db.ts: "(skipped: …)").
// A hook that fails (a `beforeAll` that cannot reach its database, an `afterAll` that throws) is a failure named
// after the hook and its suite, and the tests it kept from running are failures, not skips: Vitest itself marks
// them skipped. A hook is named by its kind when the run reported its start but never its end (Vitest reports
// no end for a hook that threw), else as "a hook".
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

const messageOf = (errors) => errors.map((error) => error.message ?? String(error.stack ?? error).split("\n")[0]).join("; ");

export default class SummaryReporter {
  /** Per suite or module id, the hooks started and not (yet) ended. */
  #openHooks = new Map();

  onHookStart({ name, entity }) {
    const open = this.#openHooks.get(entity.id) ?? [];
    this.#openHooks.set(entity.id, [...open, name]);
  }

  onHookEnd({ name, entity }) {
    const open = this.#openHooks.get(entity.id) ?? [];
    const index = open.indexOf(name);
    if (index >= 0) this.#openHooks.set(entity.id, open.toSpliced(index, 1));
  }

  #hookOf(entity) {
    const open = [...new Set(this.#openHooks.get(entity.id) ?? [])].filter((name) => name.endsWith("All"));
    return open.length > 0 ? open.join(" or ") : "a hook";
  }

  onTestRunEnd(testModules, unhandledErrors = [], reason) {
    const file = process.env.VITEST_SUMMARY_FILE;
    if (!file) return;
    const summary = {
      passed: 0,
      failed: [],
      flaky: [],
      skipped: [],
      notRun: [],
      loadErrors: [],
      hookErrors: [],
      unhandledErrors: [],
      reason,
    };
    for (const testModule of testModules) {
      const where = testModule.relativeModuleId ?? testModule.moduleId;
      // The suites (and the module itself) whose hook failed: their tests that did not run are failures.
      const broken = new Map();
      const errors = testModule.errors();
      if (errors.length > 0) {
        // A module that collected tests and then reported an error failed in a top-level hook, not while loading.
        const hooked = testModule.children.size > 0 && this.#hookOf(testModule) !== "a hook";
        if (hooked) broken.set(testModule.id, `${this.#hookOf(testModule)} of ${where}`);
        else summary.loadErrors.push({ file: where, message: messageOf(errors) });
        if (hooked) summary.hookErrors.push({ hook: broken.get(testModule.id), message: messageOf(errors) });
      }
      for (const suite of testModule.children.allSuites()) {
        const suiteErrors = suite.errors();
        if (suiteErrors.length === 0) continue;
        const hook = `${this.#hookOf(suite)} of ${where} › ${suite.fullName}`;
        broken.set(suite.id, hook);
        summary.hookErrors.push({ hook, message: messageOf(suiteErrors) });
      }
      const brokenHookOf = (test) => {
        for (let parent = test.parent; parent; parent = parent.parent) if (broken.has(parent.id)) return broken.get(parent.id);
        return undefined;
      };
      for (const test of testModule.children.allTests()) {
        const name = `${where} › ${test.fullName}`;
        const result = test.result();
        const hook = brokenHookOf(test);
        if (hook && result.state === "skipped") {
          summary.failed.push({ name: `${name} (did not run: ${hook} failed)` });
        } else if (result.state === "passed") {
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

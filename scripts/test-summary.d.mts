export const POSTGRES_SKIP_REASON: string;

export interface SuiteResult {
  label: string;
  passed: number;
  failed: number;
  flaky: string[];
  failures: string[];
  skipped: Array<{ name: string; reason: string }>;
  problems: string[];
}

export interface VitestSummaryReport {
  passed: number;
  failed: Array<{ name: string }>;
  flaky: Array<{ name: string; retries: number }>;
  skipped: Array<{ name: string; reason: string }>;
  notRun: Array<{ name: string }>;
  loadErrors: Array<{ file: string; message: string }>;
  /** A failed hook, named by kind (when known), file and suite; the tests it kept from running are in `failed`. */
  hookErrors?: Array<{ hook: string; message: string }>;
  unhandledErrors: string[];
}

export function emptySuite(label: string): SuiteResult;
export function suiteThatDidNotRun(label: string, problem: string): SuiteResult;
export function checksSuite(results: Array<{ name: string; status: number }>, label?: string): SuiteResult;
export function vitestSuite(report: VitestSummaryReport | undefined, status: number, label?: string): SuiteResult;
export function playwrightSuite(report: unknown, status: number, label: string): SuiteResult;
export function summaryLines(
  suites: SuiteResult[],
  options: { postgresExpected: boolean },
): { lines: string[]; passed: number; failed: number };

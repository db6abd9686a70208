// `npm run bench`: runs the benchmarks and prints one table. Benchmarks report figures; they assert
// nothing (behaviour is what the tests check).
//
//   npm run bench               the performance goals: load, pages, lighthouse, next-case (about a quarter
//                               of an hour, a production build included when the sources changed)
//   npm run bench -- all        every suite, the scale ones too (audit at 1,000,000 events, cases at
//                               85,000 verifications, proxy, overview, the analyst session, the cluster of two
//                               instances behind nginx): half an hour or more
//   npm run bench -- audit      only the named suites
//   npm run bench -- --no-write   prints the table without writing docs/benchmarks.md
//
// Each suite's table is also written into docs/benchmarks.md as soon as the suite ends (scripts/bench-report.ts:
// its block in the generated section is replaced, the other suites' blocks and the hand-written text kept),
// with the date, the machine (cores, memory, load, Node) and the databases it measured.
//
// Adding a suite: a module whose default export resolves to BenchRow[], listed in SUITES below.

import pg from "pg";

import { currentMachine, formatValue, REPORT_FILE, writeBenchReport, type Machine } from "./bench-report";

export interface BenchRow {
  suite: string;
  case: string;
  value: number;
  unit: "ms" | "s" | "KiB" | "MiB" | "count" | "%" | "req/s";
  note?: string;
}

const SUITES: Record<string, () => Promise<{ default: () => Promise<BenchRow[]> }>> = {
  audit: () => import("./bench-audit"),
  proxy: () => import("./bench-proxy"),
  pages: () => import("./bench-pages"),
  lighthouse: () => import("./bench-lighthouse"),
  overview: () => import("./bench-overview"),
  load: () => import("./bench-load"),
  cases: () => import("./bench-cases"),
  profile: () => import("./bench-profile"),
  "next-case": () => import("./bench-next-case"),
  session: () => import("./bench-session"),
  cluster: () => import("./bench-cluster"),
};

/** What `npm run bench` runs without names: one row per goal of the performance work, in one run. */
const GOAL_SUITES = ["load", "pages", "lighthouse", "next-case", "overview", "session"];

/** The order of the suites' blocks in docs/benchmarks.md: the goals first. */
const REPORT_ORDER = [...GOAL_SUITES, ...Object.keys(SUITES).filter((name) => !GOAL_SUITES.includes(name))];

/** The version of the PostgreSQL server the suites measure (TEST_DATABASE_URL / BENCH_DATABASE_URL), if any. */
async function postgresVersion(): Promise<string | undefined> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) return undefined;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const result = await client.query<{ server_version: string }>("show server_version");
    return result.rows[0]?.server_version.split(" ")[0];
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function printTable(rows: BenchRow[]): void {
  const header = ["suite", "case", "value", "notes"];
  const body = rows.map((row) => [row.suite, row.case, formatValue(row), row.note ?? ""]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column === 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((width, column) => (column === 2 ? `${"-".repeat(width + 1)}:` : "-".repeat(width + 2))).join("|")}|`);
  for (const cells of body) console.log(line(cells));
}

async function main(): Promise<number> {
  const requested = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
  const unknown = requested.filter((name) => name !== "all" && !(name in SUITES));
  if (unknown.length) {
    console.error(`unknown benchmark suite(s): ${unknown.join(", ")}; available: all, ${Object.keys(SUITES).join(", ")}`);
    return 2;
  }
  const names = requested.includes("all") ? Object.keys(SUITES) : requested.length ? requested : GOAL_SUITES;
  const write = !process.argv.includes("--no-write");
  const version = await postgresVersion();
  const started = Date.now();
  const rows: BenchRow[] = [];
  for (const name of names) {
    const machine: Machine = { ...currentMachine(), postgresVersion: version };
    const suiteStarted = Date.now();
    const suite = await SUITES[name]!();
    const suiteRows = await suite.default();
    rows.push(...suiteRows);
    // Written as each suite ends, so a later suite's failure does not lose what the earlier ones measured.
    if (write) await writeBenchReport([{ name, rows: suiteRows, minutes: (Date.now() - suiteStarted) / 60_000 }], machine, REPORT_ORDER);
  }
  console.log("");
  printTable(rows);
  console.log(`\n${names.join(", ")}: ${((Date.now() - started) / 60_000).toFixed(1)} minutes`);
  if (write) console.log(`written to ${REPORT_FILE}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

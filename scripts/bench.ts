// `npm run bench`: runs the benchmarks and prints one table. Benchmarks report figures; they assert
// nothing (behaviour is what the tests check).
//
//   npm run bench               the performance goals: load, pages, lighthouse (about ten minutes,
//                               a production build included when the sources changed)
//   npm run bench -- all        every suite, the scale ones too (audit at 1,000,000 events, cases at
//                               85,000 verifications, proxy, overview): half an hour or more
//   npm run bench -- audit      only the named suites
//
// Adding a suite: a module whose default export resolves to BenchRow[], listed in SUITES below.

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
};

/** What `npm run bench` runs without names: one row per goal of the performance work, in one run. */
const GOAL_SUITES = ["load", "pages", "lighthouse"];

function printTable(rows: BenchRow[]): void {
  const header = ["suite", "case", "value", "notes"];
  const body = rows.map((row) => [
    row.suite,
    row.case,
    `${row.value < 10 ? row.value.toFixed(2) : row.value.toFixed(1)} ${row.unit}`,
    row.note ?? "",
  ]);
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
  const started = Date.now();
  const rows: BenchRow[] = [];
  for (const name of names) {
    const suite = await SUITES[name]!();
    rows.push(...(await suite.default()));
  }
  console.log("");
  printTable(rows);
  console.log(`\n${names.join(", ")}: ${((Date.now() - started) / 60_000).toFixed(1)} minutes`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

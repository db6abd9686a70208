// Writes `npm run bench`'s results into docs/benchmarks.md, between the markers `<!-- bench:start -->` and
// `<!-- bench:end -->`. The rest of that file is written by hand (what each figure measures, the goals);
// figures live only in the generated section.
//
// The section holds one block per suite (`<!-- bench:suite <name> -->`, a heading, the run's date, machine
// and databases, the table). A run replaces the blocks of the suites it ran and keeps the others, so
// `npm run bench -- audit` updates the audit figures and leaves the load, pages and Lighthouse ones as the
// last full run wrote them, each still saying when and where it was measured.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import type { BenchRow } from "./bench";

export const START_MARKER = "<!-- bench:start -->";
export const END_MARKER = "<!-- bench:end -->";
const SUITE_MARKER = /^<!-- bench:suite ([a-z0-9-]+) -->$/gm;
const NOTICE = "<!-- Written by `npm run bench` (scripts/bench-report.ts): a hand edit here is lost at the next run. -->";
const PLACEHOLDER = "No run recorded yet: `npm run bench` writes its results here.";

export const REPORT_FILE = path.resolve(import.meta.dirname, "..", "docs", "benchmarks.md");

/** Where and when a suite ran. */
export interface Machine {
  date: Date;
  cores: number;
  cpu: string;
  memoryGiB: number;
  /** The one-minute load average when the suite started: a busy machine makes slower figures. */
  loadAverage: number;
  node: string;
  platform: string;
  /** The PostgreSQL server's version, when a suite measured PostgreSQL and the version could be read. */
  postgresVersion?: string;
}

export interface SuiteRun {
  name: string;
  rows: BenchRow[];
  minutes: number;
}

export function currentMachine(date = new Date()): Machine {
  const cpus = os.cpus();
  return {
    date,
    cores: cpus.length,
    cpu: cpus[0]?.model.replace(/\s+/g, " ").trim() ?? "unknown CPU",
    memoryGiB: os.totalmem() / 1024 ** 3,
    loadAverage: os.loadavg()[0] ?? 0,
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
  };
}

/** A row's value as the table prints it: two decimals under 10, one above. */
export function formatValue(row: BenchRow): string {
  return `${row.value < 10 ? row.value.toFixed(2) : row.value.toFixed(1)} ${row.unit}`;
}

/**
 * Which databases a suite's rows measured. Rows name theirs (`load (PostgreSQL)`, `audit (pglite, …)`,
 * `sync, first run (PGlite)`); rows naming none ran on the demo system, whose database is the embedded PGlite.
 */
export function databasesOf(rows: BenchRow[]): { pglite: boolean; postgres: boolean } {
  let pglite = false;
  let postgres = false;
  for (const row of rows) {
    const text = `${row.suite} ${row.case}`;
    const namesPostgres = /postgres/i.test(text);
    const namesPglite = /pglite/i.test(text);
    if (namesPostgres) postgres = true;
    if (namesPglite || !namesPostgres) pglite = true;
  }
  return { pglite, postgres };
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** One suite's block: marker, heading, where and when, the table. */
export function renderSuite(run: SuiteRun, machine: Machine): string {
  const { pglite, postgres } = databasesOf(run.rows);
  const databases = [
    pglite ? "PGlite (embedded)" : null,
    postgres ? `PostgreSQL${machine.postgresVersion ? ` ${machine.postgresVersion}` : ""}` : null,
  ].filter(Boolean);
  const where = [
    utc(machine.date),
    `${machine.cores} cores (${machine.cpu})`,
    `${machine.memoryGiB.toFixed(1)} GiB memory`,
    `load average ${machine.loadAverage.toFixed(2)} at start`,
    `Node ${machine.node} (${machine.platform})`,
    `database: ${databases.join(" and ")}`,
    `${run.minutes.toFixed(1)} minutes`,
  ].join("; ");
  const table = [
    "| suite | case | value | notes |",
    "| --- | --- | ---: | --- |",
    ...run.rows.map((row) => `| ${cell(row.suite)} | ${cell(row.case)} | ${formatValue(row)} | ${cell(row.note ?? "")} |`),
  ];
  return [`<!-- bench:suite ${run.name} -->`, "", `### ${run.name}`, "", `${where}.`, "", ...table].join("\n");
}

/** The blocks already in a generated section, by suite name. */
export function existingBlocks(section: string): Map<string, string> {
  const blocks = new Map<string, string>();
  const marks = [...section.matchAll(SUITE_MARKER)];
  marks.forEach((mark, index) => {
    const end = index + 1 < marks.length ? marks[index + 1]!.index : section.length;
    blocks.set(mark[1]!, section.slice(mark.index, end).trim());
  });
  return blocks;
}

/**
 * The document with its generated section holding `blocks` (new suites' blocks replacing their old ones,
 * the others kept), in `order` (suites not in it after, by name). Everything outside the markers is kept as
 * it is; a document without the markers gets the section appended.
 */
export function replaceGenerated(doc: string, blocks: Map<string, string>, order: readonly string[]): string {
  const start = doc.indexOf(START_MARKER);
  const end = doc.indexOf(END_MARKER, start + START_MARKER.length);
  const hasSection = start !== -1 && end !== -1;
  const merged = hasSection ? existingBlocks(doc.slice(start + START_MARKER.length, end)) : new Map<string, string>();
  for (const [name, block] of blocks) merged.set(name, block);
  const names = [...merged.keys()].sort((a, b) => {
    const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  const body = names.length ? names.map((name) => merged.get(name)!).join("\n\n") : PLACEHOLDER;
  const section = `${START_MARKER}\n\n${NOTICE}\n\n${body}\n\n${END_MARKER}`;
  if (hasSection) return doc.slice(0, start) + section + doc.slice(end + END_MARKER.length);
  return `${doc.replace(/\s*$/, "")}\n\n${section}\n`;
}

/** Formats as the project's Prettier does (its configuration, wherever `file` is), so `npm run format:check` passes. */
async function formatMarkdown(text: string, file: string): Promise<string> {
  try {
    const prettier = await import("prettier");
    const options = (await prettier.resolveConfig(REPORT_FILE)) ?? {};
    return await prettier.format(text, { ...options, filepath: file });
  } catch {
    // Prettier is a dev dependency: without it the figures are still worth keeping, unformatted.
    return text;
  }
}

/** Writes `runs` into the generated section of `file` (docs/benchmarks.md unless told otherwise). */
export async function writeBenchReport(
  runs: SuiteRun[],
  machine: Machine,
  order: readonly string[],
  file: string = REPORT_FILE,
): Promise<void> {
  const doc = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const blocks = new Map(runs.map((run) => [run.name, renderSuite(run, machine)]));
  fs.writeFileSync(file, await formatMarkdown(replaceGenerated(doc, blocks, order), file));
}

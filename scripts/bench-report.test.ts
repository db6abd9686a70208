import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import type { BenchRow } from "./bench";
import {
  databasesOf,
  END_MARKER,
  existingBlocks,
  renderSuite,
  replaceGenerated,
  START_MARKER,
  writeBenchReport,
  type Machine,
} from "./bench-report";

/* `npm run bench` writes its tables into docs/benchmarks.md's generated section and nowhere else. */

const machine: Machine = {
  date: new Date("2026-11-25T14:03:27Z"),
  cores: 2,
  cpu: "Test CPU",
  memoryGiB: 7.75,
  loadAverage: 0.5,
  node: "v20.19.0",
  platform: "linux x64",
  postgresVersion: "16.4",
};

const loadRows: BenchRow[] = [
  { suite: "load (PGlite)", case: "list throughput", value: 812.4, unit: "req/s" },
  { suite: "load (PostgreSQL)", case: "list / no-op throughput", value: 51.2, unit: "%", note: "goal ≥ 60 %" },
];

const HEAD = "# Benchmarks\n\nWhat each figure measures, written by hand.\n\n## Results\n\n";
const TAIL = "\n\n## After the results\n\nAlso written by hand.\n";

function doc(section: string): string {
  return `${HEAD}${START_MARKER}\n${section}\n${END_MARKER}${TAIL}`;
}

describe("bench report", () => {
  it("renders a suite's block with its date, machine, databases and table", () => {
    const block = renderSuite({ name: "load", rows: loadRows, minutes: 9.84 }, machine);
    expect(block).toContain("<!-- bench:suite load -->");
    expect(block).toContain("### load");
    expect(block).toContain("2026-11-25 14:03 UTC; 2 cores (Test CPU); 7.8 GiB memory");
    expect(block).toContain("Node v20.19.0 (linux x64); database: PGlite (embedded) and PostgreSQL 16.4; 9.8 minutes.");
    expect(block).toContain("| load (PGlite) | list throughput | 812.4 req/s |  |");
    expect(block).toContain("| load (PostgreSQL) | list / no-op throughput | 51.2 % | goal ≥ 60 % |");
  });

  it("names the databases the rows measured; rows naming none ran on the embedded PGlite", () => {
    expect(databasesOf([{ suite: "pages", case: "client JS /", value: 1, unit: "KiB" }])).toEqual({ pglite: true, postgres: false });
    expect(databasesOf([{ suite: "audit (postgres, 1,000 events)", case: "insert", value: 1, unit: "s" }])).toEqual({
      pglite: false,
      postgres: true,
    });
    expect(databasesOf(loadRows)).toEqual({ pglite: true, postgres: true });
  });

  it("escapes a pipe inside a cell", () => {
    const block = renderSuite({ name: "cases", rows: [{ suite: "cases", case: "a | b", value: 1, unit: "ms" }], minutes: 1 }, machine);
    expect(block).toContain("| cases | a \\| b | 1.00 ms |  |");
  });

  it("replaces the generated section only, keeping the hand-written text around it", () => {
    const before = doc("\nNo run recorded yet.\n");
    const block = renderSuite({ name: "load", rows: loadRows, minutes: 1 }, machine);
    const after = replaceGenerated(before, new Map([["load", block]]), ["load", "audit"]);
    expect(after.startsWith(HEAD)).toBe(true);
    expect(after.endsWith(TAIL)).toBe(true);
    expect(after).toContain(block);
    expect(after).not.toContain("No run recorded yet.");
  });

  it("replaces the suites that ran and keeps the others, in the given order", () => {
    const oldLoad = renderSuite(
      { name: "load", rows: [{ suite: "load (PGlite)", case: "old figure", value: 1, unit: "ms" }], minutes: 1 },
      machine,
    );
    const audit = renderSuite(
      { name: "audit", rows: [{ suite: "audit (pglite, 10 events)", case: "insert", value: 2, unit: "s" }], minutes: 1 },
      machine,
    );
    const before = doc(`\n${audit}\n\n${oldLoad}\n`);
    const newLoad = renderSuite({ name: "load", rows: loadRows, minutes: 1 }, machine);
    const after = replaceGenerated(before, new Map([["load", newLoad]]), ["load", "audit"]);
    expect(after).not.toContain("old figure");
    expect(after).toContain(audit);
    expect(after.indexOf(newLoad)).toBeLessThan(after.indexOf(audit));
    const section = after.slice(after.indexOf(START_MARKER), after.indexOf(END_MARKER));
    expect([...existingBlocks(section).keys()]).toEqual(["load", "audit"]);
  });

  it("appends the section to a document without markers", () => {
    const block = renderSuite({ name: "load", rows: loadRows, minutes: 1 }, machine);
    const after = replaceGenerated("# Benchmarks\n\nHand-written.\n", new Map([["load", block]]), ["load"]);
    expect(after.startsWith("# Benchmarks\n\nHand-written.\n\n<!-- bench:start -->")).toBe(true);
    expect(after.trimEnd().endsWith(END_MARKER)).toBe(true);
  });

  it("writes a file Prettier leaves as it is, twice in a row without losing the other suite", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-report-"));
    const file = path.join(dir, "benchmarks.md");
    fs.writeFileSync(file, doc("\nNo run recorded yet.\n"));
    try {
      await writeBenchReport([{ name: "load", rows: loadRows, minutes: 1 }], machine, ["load", "audit"], file);
      const audit: BenchRow[] = [{ suite: "audit (pglite, 10 events)", case: "insert", value: 2, unit: "s" }];
      await writeBenchReport([{ name: "audit", rows: audit, minutes: 1 }], machine, ["load", "audit"], file);
      const written = fs.readFileSync(file, "utf8");
      const prettier = await import("prettier");
      const options = (await prettier.resolveConfig(path.resolve(import.meta.dirname, "..", "docs", "benchmarks.md"))) ?? {};
      expect(await prettier.check(written, { ...options, filepath: file })).toBe(true);
      expect(written).toContain("What each figure measures, written by hand.");
      expect(written).toContain("Also written by hand.");
      expect(written).toMatch(/\| load \(PGlite\) +\| list throughput +\| +812\.4 req\/s \|/);
      expect(written).toMatch(/\| audit \(pglite, 10 events\) \| insert \| +2\.00 s \|/);
      expect(written.indexOf("### load")).toBeLessThan(written.indexOf("### audit"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { actionChoices, AUDIT_ACTION_NAMES } from "./action-names";

/** Source files that write events (tests and synthetic test data excluded). */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

// Names on a line that speaks of an action: `action: "x.y"`, `const action = a ? "x.y" : "x.z"`, `"x.y.z"`, or
// that calls one of the case module's recorders, which take the action as an argument
// (`succeeded(tx, context, "case.move", …)`, `refused(db, context, "case.move", …)`, lib/cases/server/context.ts).
const NAME = /"([a-z]+(?:\.[a-z_]+){1,2})"/g;
const SPEAKS_OF_ACTION = /\baction\b|\b(?:succeeded|refused)\(/i;
const NOT_ACTIONS = new Set(["probe.value", "actions.failed"]);

describe("audit action catalogue", () => {
  const root = process.cwd();
  const written = new Set(
    [...sources(path.join(root, "app")), ...sources(path.join(root, "lib"))]
      .filter((file) => !file.endsWith("action-names.ts"))
      .flatMap((file) => fs.readFileSync(file, "utf8").split("\n"))
      .filter((line) => SPEAKS_OF_ACTION.test(line))
      .flatMap((line) => [...line.matchAll(NAME)].map((match) => match[1]!))
      .filter((name) => !NOT_ACTIONS.has(name)),
  );

  it("lists every action name the code writes", () => {
    expect([...written].filter((name) => !(AUDIT_ACTION_NAMES as readonly string[]).includes(name))).toEqual([]);
  });

  it("lists no name the code never writes", () => {
    expect(AUDIT_ACTION_NAMES.filter((name) => !written.has(name))).toEqual([]);
  });

  it("offers the catalogue with older recorded names, once each, sorted", () => {
    const choices = actionChoices(["lookup.cpf_receita", "legacy.thing"], { coaf: true });
    expect(choices).toContain("legacy.thing");
    expect(choices.filter((name) => name === "lookup.cpf_receita")).toHaveLength(1);
    expect(choices).toEqual([...choices].sort());
    expect(choices).not.toContain("lookup.cpf");
  });

  it("offers the suspicious-activity reports' actions only to a member holding coaf.report (no tipping off)", () => {
    expect(actionChoices([], { coaf: true })).toContain("coaf.report_open");
    expect(actionChoices(["coaf.report_filed"], { coaf: false }).filter((name) => name.startsWith("coaf."))).toEqual([]);
  });
});

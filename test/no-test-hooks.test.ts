import fs from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * Production modules export no test hooks: no exported name ending in ForTests/forTests, and no export
 * documented "Tests only". A test that needs to reach state the app keeps uses a real API (a dependency
 * parameter, an unsubscribe function, a documented process-wide slot) and its own support in test/.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const PRODUCTION_FOLDERS = ["lib", "app", "components"];
// What Next loads from the root besides those folders.
const ROOT_MODULES = ["proxy.ts", "instrumentation.ts"];
const HOOK_NAME = /(ForTests|forTests)$/;
const TESTS_ONLY = /\btests only\b/i;

/** `file:line name (why)` for each export of the source that is a test hook. */
function testHooksIn(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const saysTestsOnly = (node: ts.Node) =>
    (ts.getLeadingCommentRanges(source, node.getFullStart()) ?? []).some((range) => TESTS_ONLY.test(source.slice(range.pos, range.end)));
  const check = (node: ts.Node, name: string, commented: ts.Node[]) => {
    const where = `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${name}`;
    if (HOOK_NAME.test(name)) found.push(`${where} (named for tests)`);
    if (commented.some(saysTestsOnly)) found.push(`${where} ("Tests only")`);
  };

  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement)) {
      // export { a, b as c } (from "…"): each exported name, with its own comment or the statement's.
      if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) check(element, element.name.text, [statement, element]);
      }
      continue;
    }
    if (ts.isExportAssignment(statement)) {
      check(statement, "default", [statement]);
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    if (!modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        for (const name of boundNames(declaration.name)) check(declaration, name, [statement]);
      }
    } else {
      // A function, class, interface, type, enum or namespace; `export default function () {}` has no name.
      const declared = (statement as { name?: ts.Node }).name;
      check(statement, declared && ts.isIdentifier(declared) ? declared.text : "default", [statement]);
    }
  }
  return found;
}

function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) => (ts.isBindingElement(element) ? boundNames(element.name) : []));
}

function productionModules(): string[] {
  const inFolders = PRODUCTION_FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !/\.(test|spec)\.tsx?$/.test(file))
      .map((file) => path.join(folder, file)),
  );
  return [...ROOT_MODULES, ...inFolders];
}

describe("test hooks", () => {
  it("are recognised by name and by a Tests only comment, whatever the form of the export", () => {
    const source = [
      "export function resetCacheForTests() {}",
      "export const seedForTests = () => undefined, ordinary = 1;",
      "const clear = () => undefined;",
      "export { clear as clearForTests };",
      "/** Tests only: swap the clock. */",
      "export function setClock() {}",
      "// tests only",
      "export const { deep: { inner } } = { deep: { inner: 1 } };",
      "export {",
      "  /** Tests only. */",
      "  clear,",
      "};",
      "function stateForTests() {}",
      "/** Counts the tests only once they ran. */",
      "const counted = 1;",
      "export function contestsOnlyOnce() {}",
      "export default function helperForTests() {}",
    ].join("\n");
    expect(testHooksIn("sample.ts", source)).toEqual([
      "sample.ts:1 resetCacheForTests (named for tests)",
      "sample.ts:2 seedForTests (named for tests)",
      "sample.ts:4 clearForTests (named for tests)",
      'sample.ts:6 setClock ("Tests only")',
      'sample.ts:8 inner ("Tests only")',
      'sample.ts:11 clear ("Tests only")',
      "sample.ts:17 helperForTests (named for tests)",
    ]);
  });

  it("are exported by no module under lib/, app/, components/ or lib/i18n/, nor by the root's proxy and instrumentation", () => {
    const modules = productionModules();
    // The walk found the tree (a wrong root would pass vacuously).
    expect(modules).toEqual(expect.arrayContaining(["lib/config/index.ts", "lib/log.ts", path.join("app", "layout.tsx")]));
    const found = modules.flatMap((file) => testHooksIn(file, fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(found).toEqual([]);
  });
});

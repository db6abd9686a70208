import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * Every text a person reads comes from messages/<locale>/*.json, so it exists in both languages. This guard parses
 * every component and page (.tsx, tests aside) and fails on English written into the markup: a JSX text node with a
 * word in it, a string given to a prop a person reads (a label, a title, a placeholder…), or a string literal placed
 * as a child (`{busy ? "Saving" : null}`). Class names, ids, routes and other props nobody reads are not looked at;
 * text built in plain TypeScript away from the markup is out of its reach (the messages' key-parity test and the
 * reviews hold that).
 */

const root = path.resolve(import.meta.dirname, "../..");

/** Props whose value a person reads or hears. */
const READ_PROPS = new Set([
  "aria-label",
  "aria-description",
  "aria-roledescription",
  "aria-valuetext",
  "title",
  "placeholder",
  "alt",
  "label",
  "description",
  "caption",
  "intro",
  "lead",
  "heading",
  "confirmLabel",
  "cancelLabel",
  "submitLabel",
  "retryLabel",
  "loading",
  "failed",
]);

/**
 * What may stay as written, with why. Acronyms that both languages write the same way only: anything longer is
 * a sentence and belongs in the catalogue.
 */
const ALLOWED = new Set([
  // Politically exposed person: Brazilian compliance writes "PEP" too (pessoa exposta politicamente).
  "PEP",
]);

const WORD = /\p{L}{2,}/u;

function literals(expression: ts.Expression | undefined, found: ts.StringLiteralLike[] = []): ts.StringLiteralLike[] {
  if (!expression) return found;
  if (ts.isStringLiteralLike(expression)) found.push(expression);
  else if (ts.isParenthesizedExpression(expression)) literals(expression.expression, found);
  else if (ts.isConditionalExpression(expression)) literals(expression.whenFalse, literals(expression.whenTrue, found));
  else if (ts.isBinaryExpression(expression) && expression.operatorToken.kind !== ts.SyntaxKind.EqualsEqualsEqualsToken)
    literals(expression.right, literals(expression.left, found));
  return found;
}

/** The hard-coded texts of one .tsx source, as "line: text". */
function hardCodedTexts(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const trimmed = text.replace(/\s+/g, " ").trim();
    if (WORD.test(trimmed) && !ALLOWED.has(trimmed))
      found.push(`${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${trimmed}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text);
    else if (ts.isJsxAttribute(node) && READ_PROPS.has(node.name.getText()) && node.initializer) {
      const value = node.initializer;
      if (ts.isStringLiteral(value)) report(value, value.text);
      else if (ts.isJsxExpression(value)) for (const literal of literals(value.expression)) report(literal, literal.text);
    } else if (ts.isJsxExpression(node) && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)))
      for (const literal of literals(node.expression)) report(literal, literal.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(relative);
    return entry.name.endsWith(".tsx") && !entry.name.endsWith(".test.tsx") ? [relative] : [];
  });
}

describe("no hard-coded text in the markup", () => {
  it("finds English written into JSX text, a read prop or a child expression, and leaves code alone", () => {
    const probe = `
      export function Probe({ busy, t }: { busy: boolean; t: (key: string) => string }) {
        return (
          <section className="space-y-4 text-slate-700" id="probe" data-testid="probe">
            <h2>Sessions</h2>
            <button aria-label="Close the dialog" title={t("close")}>{t("close")}</button>
            <input placeholder={busy ? "Saving…" : t("name")} type="text" name="name" />
            <p>{busy ? "Loading" : null} PEP {"·"} {42}</p>
          </section>
        );
      }`;
    expect(hardCodedTexts("probe.tsx", probe)).toEqual(["5: Sessions", "6: Close the dialog", "7: Saving…", "8: Loading"]);
  });

  it("holds for every component and page", () => {
    const offenders = [...sources("components"), ...sources("app")].flatMap((file) =>
      hardCodedTexts(file, readFileSync(path.join(root, file), "utf8")).map((line) => `${file}:${line}`),
    );
    expect(offenders, "put these texts in messages/en and messages/pt-BR").toEqual([]);
  });
});

import compile from "icu-minify/compile";
import format from "icu-minify/format";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";

import { LOCALES, type Locale } from "./locales";
import { loadMessages } from "./messages";

/*
 * The build compiles every catalogue message (next.config.mjs: next-intl's `precompile`, icu-minify) and the
 * pages format the compiled form with next-intl's small formatter, while the tests (and anything run outside
 * the build) format the text with the full ICU parser. Both must say the same: every message of both
 * languages is formatted both ways, with each plural category, each select branch and each rich-text tag.
 */

type Tree = { [key: string]: unknown };
type Values = Record<string, string | number | ((chunks: unknown) => string)>;

function messagesOf(tree: unknown, prefix = ""): Array<[string, string]> {
  if (typeof tree === "string") return [[prefix, tree]];
  return Object.entries(tree as Tree).flatMap(([key, inner]) => messagesOf(inner, prefix ? `${prefix}.${key}` : key));
}

/** What a compiled message asks for: each argument's kind, and a select's branches. */
function argumentsOf(node: unknown, found = new Map<string, { kind: "text" | "plural" | "select" | "tag"; options: string[] }>()) {
  if (!Array.isArray(node)) return found;
  const [head, kind, options] = node as [unknown, unknown, unknown];
  if (typeof head === "string" && node.length === 1) found.set(head, found.get(head) ?? { kind: "text", options: [] });
  else if (typeof head === "string" && (kind === 2 || kind === 3)) {
    found.set(head, { kind: "plural", options: [] });
    for (const branch of Object.values(options as Tree)) argumentsOf(branch, found);
  } else if (typeof head === "string" && kind === 1) {
    found.set(head, { kind: "select", options: Object.keys(options as Tree).filter((key) => key !== "other") });
    for (const branch of Object.values(options as Tree)) argumentsOf(branch, found);
  } else if (typeof head === "string" && typeof kind !== "number") {
    found.set(head, { kind: "tag", options: [] });
    for (const child of node.slice(1)) argumentsOf(child, found);
  } else for (const child of node) argumentsOf(child, found);
  return found;
}

const COUNTS = [0, 1, 2, 7, 1234];

/** Enough sets of values to take every plural category and select branch at least once. */
function valueSets(compiled: unknown): Values[] {
  const args = [...argumentsOf(compiled)];
  const rounds = Math.max(
    1,
    ...args.map(([, arg]) => (arg.kind === "plural" ? COUNTS.length : arg.kind === "select" ? arg.options.length + 1 : 1)),
  );
  return Array.from({ length: rounds }, (_, round) =>
    Object.fromEntries(
      args.map(([name, arg]): [string, Values[string]] => {
        if (arg.kind === "plural") return [name, COUNTS[round % COUNTS.length]!];
        if (arg.kind === "select") return [name, [...arg.options, "something-else"][round % (arg.options.length + 1)]!];
        if (arg.kind === "tag") return [name, (chunks) => `<${name}>${[chunks].flat().join("")}</${name}>`];
        return [name, `«${name}»`];
      }),
    ),
  );
}

const formatters = {
  getDateTimeFormat: (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...args),
  getNumberFormat: (...args: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...args),
  getPluralRules: (...args: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...args),
};

describe.each(LOCALES)("precompiled messages (%s)", (locale: Locale) => {
  it("format as the ICU parser formats the text, in every branch", async () => {
    const messages = await loadMessages(locale);
    const t = createTranslator({ locale, messages, timeZone: "America/Sao_Paulo" });
    const differences: string[] = [];
    let checked = 0;
    for (const [key, text] of messagesOf(messages)) {
      const compiled = compile(text);
      for (const values of valueSets(compiled)) {
        const expected = t.markup(key as never, values as never);
        const actual = [format<string>(compiled, locale, values, { formatters, timeZone: "America/Sao_Paulo" })].flat().join("");
        checked += 1;
        if (actual !== expected)
          differences.push(`${key} ${JSON.stringify(values)}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(differences).toEqual([]);
  });
});

describe("icu-minify's compiler", () => {
  it("a message with plurals, a select or tags is compiled to something other than its text", () => {
    // Guards the test above: were compile() to hand every message back as it is, it would compare text with itself.
    expect(compile("{count, plural, one {# case} other {# cases}}")).not.toBe("{count, plural, one {# case} other {# cases}}");
    expect(compile("Plain text")).toBe("Plain text");
  });
});

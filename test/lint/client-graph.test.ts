import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/*
 * What the browser downloads is every module a client component reaches, however far down. No validation library
 * belongs there (forms check with plain rule functions; only the server wraps them in zod), and a module that imports
 * zod one step below a form is as bad as the form importing it. The browser test e2e/client-bundle.spec.ts reads the
 * built chunks; this walks the sources, so the mistake shows in a second, with the path that carries it.
 */

const root = path.resolve(import.meta.dirname, "../..");
const SOURCE_DIRS = ["app", "components", "lib"];
const SERVER_ONLY_PACKAGES = ["zod"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const isClientEntry = (text: string) => /^\s*(?:\/\/[^\n]*\n|\/\*[\s\S]*?\*\/\s*)*["']use client["']/.test(text);

/** The page files under `dir`, found on disk (a new page is held to the checks that walk them). */
function pageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? pageFiles(full) : entry.name === "page.tsx" ? [full] : [];
  });
}

/** The specifiers a module imports for its value (type-only imports are erased and load nothing). */
export function valueImportsOf(text: string): string[] {
  const specifiers: string[] = [];
  const pattern = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[\s\S]*?\sfrom\s+)?["']([^"']+)["']/g;
  for (const match of text.matchAll(pattern)) if (!match[1]) specifiers.push(match[2]!);
  for (const match of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) specifiers.push(match[1]!);
  return specifiers;
}

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith("@/")
    ? path.join(root, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : undefined;
  if (!base) return undefined;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find((candidate) => /\.(ts|tsx)$/.test(candidate) && existsSync(candidate));
}

/** For each server-only package a client entry reaches: the chain of modules from the entry to the import. */
function clientReaches(): string[] {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(root, dir)));
  const textOf = new Map(files.map((file) => [file, readFileSync(file, "utf8")]));
  const hits: string[] = [];
  for (const entry of files.filter((file) => isClientEntry(textOf.get(file)!))) {
    const seen = new Set([entry]);
    const queue: Array<{ file: string; chain: string[] }> = [{ file: entry, chain: [entry] }];
    while (queue.length > 0) {
      const { file, chain } = queue.shift()!;
      const text = textOf.get(file) ?? readFileSync(file, "utf8");
      for (const specifier of valueImportsOf(text)) {
        if (SERVER_ONLY_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
          hits.push(`${[...chain, specifier].map((item) => path.relative(root, item) || item).join(" → ")}`);
          continue;
        }
        const next = resolveLocal(file, specifier);
        if (next && !seen.has(next)) {
          seen.add(next);
          queue.push({ file: next, chain: [...chain, next] });
        }
      }
    }
  }
  return hits;
}

/**
 * The chains by which `entry`'s first load reaches `pkg` (a package's name, or a module's absolute path): its modules
 * are walked through their static imports (a dynamic `import()` is a chunk fetched later), and `pkg` counts once the
 * walk is inside a client component.
 */
function firstLoadReaches(entry: string, pkg: string): string[] {
  const target = path.isAbsolute(pkg) ? pkg : undefined;
  const staticImportsOf = (text: string) => valueImportsOf(text.replace(/import\(\s*["'][^"']+["']\s*\)/g, ""));
  const seen = new Set<string>();
  const queue: Array<{ file: string; client: boolean; chain: string[] }> = [{ file: entry, client: false, chain: [entry] }];
  const hits: string[] = [];
  while (queue.length > 0) {
    const { file, client: above, chain } = queue.shift()!;
    const text = readFileSync(file, "utf8");
    const client = above || isClientEntry(text);
    for (const specifier of staticImportsOf(text)) {
      const next = resolveLocal(file, specifier);
      if (client && (target ? next === target : specifier === pkg || specifier.startsWith(`${pkg}/`))) {
        hits.push([...chain, specifier].map((item) => path.relative(root, item) || item).join(" → "));
        continue;
      }
      if (next && !seen.has(`${next} ${client}`)) {
        seen.add(`${next} ${client}`);
        queue.push({ file: next, client, chain: [...chain, next] });
      }
    }
  }
  return hits;
}

describe("what a client component reaches", () => {
  it("reads value imports and skips type-only ones", () => {
    const text = [
      `"use client";`,
      `import { z } from "zod";`,
      `import type { Flow } from "@/lib/connections/flows";`,
      `import {\n  a,\n  b,\n} from "./rules";`,
      `export { c } from "../shared";`,
      `import "./side-effect.css";`,
      `const lazy = () => import("@/components/x");`,
    ].join("\n");
    expect(valueImportsOf(text)).toEqual(["zod", "./rules", "../shared", "./side-effect.css", "@/components/x"]);
  });

  it("finds the client entries (a tree without them would make the check below vacuous)", () => {
    const entries = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(root, dir))).filter((file) =>
      isClientEntry(readFileSync(file, "utf8")),
    );
    expect(entries.length).toBeGreaterThan(50);
  });

  it("no client component reaches zod, directly or through the modules it imports", () => {
    expect(clientReaches()).toEqual([]);
  });

  /*
   * react-query is loaded by the pages whose client reads queries (components/ui/query-provider.tsx), not by the
   * signed-in shell: the shell's islands that use it (the bell, the nav's saved views, "Away") fetch their code once the
   * page has loaded, so a page with no query (the overview) loads none of it. e2e/client-bundle.spec.ts checks the same
   * in the browser.
   */
  it("the signed-in shell and every signed-in page but the detail load no react-query with the page", () => {
    const detail = path.join(root, "app/(dashboard)/verifications/[publicId]/page.tsx");
    const pages = pageFiles(path.join(root, "app/(dashboard)")).filter((file) => file !== detail);
    expect(pages).toContain(path.join(root, "app/(dashboard)/cases/page.tsx"));
    const reached = [path.join(root, "app/(dashboard)/layout.tsx"), ...pages].flatMap((file) =>
      firstLoadReaches(file, "@tanstack/react-query").map((chain) => `${path.relative(root, file)}: ${String(chain)}`),
    );
    expect(reached).toEqual([]);
    // The walk does see it where a page loads it: the detail still hydrates a cache for its hooks.
    expect(firstLoadReaches(detail, "@tanstack/react-query")).not.toEqual([]);
  });

  /*
   * Nor the API client: the shell's own requests (the top bar's search, signing out, the step-up's methods) import it
   * when they are sent, and the step-up provider registers through its own module (step-up-registry.ts). So a page
   * whose own code sends nothing (the administration's index, "not allowed") loads none of it with the page.
   */
  it("the signed-in shell loads the API client only when it sends a request", () => {
    const client = path.join(root, "lib/shared/api-client/api-request.ts");
    expect(firstLoadReaches(path.join(root, "app/(dashboard)/layout.tsx"), client)).toEqual([]);
    // The walk does see it where a page's islands send requests.
    expect(firstLoadReaches(path.join(root, "app/(dashboard)/admin/integrations/page.tsx"), client)).not.toEqual([]);
  });

  /*
   * The top bar's search, the language choice and signing out are drawn by the server, and their code is fetched once the
   * page has loaded (components/layout/shell-island.tsx): no page's first load carries it.
   */
  it("the signed-in shell loads the scripts of the search, the language switcher and signing out after the page's load", () => {
    const shell = path.join(root, "app/(dashboard)/layout.tsx");
    for (const control of [
      "components/cases/case-search.tsx",
      "components/layout/language-switcher.tsx",
      "components/auth/sign-out-button.tsx",
    ])
      expect(firstLoadReaches(shell, path.join(root, control))).toEqual([]);
    // The walk does go through their island: what it imports statically is part of the first load.
    expect(firstLoadReaches(shell, path.join(root, "components/ui/after-load.tsx"))).not.toEqual([]);
  });
});

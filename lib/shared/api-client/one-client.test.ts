import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/*
 * The browser calls the dashboard's API through one client (./api-request.ts): the step-up retry, the page view
 * header, the error model and next-auth's form posts live there, so no browser file calls `fetch(` itself. Every
 * file of components/, app/ (outside app/api/, whose handlers are server code) and lib/'s browser code is read, so
 * a new file is held to it. lib/'s server code is left out: a `server/` folder, the server-only layers (db, api,
 * keys, config, log), the upstream clients (not their model/), and any module importing "server-only".
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const CLIENT = path.join("lib", "shared", "api-client", "api-request.ts");

function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts"))
    .map((name) => path.join(folder, name));
}

function isLibServerCode(file: string, source: string): boolean {
  const parts = file.split(path.sep);
  if (parts.includes("server")) return true;
  if (["db", "api", "keys"].includes(parts[1]!)) return true;
  if (parts[1] === "upstream" && parts.length === 3) return true;
  if (parts.length === 2 && /^(config|log)[.-]/.test(parts[1]!)) return true;
  return /^import "server-only";/m.test(source);
}

/** The text without comments, so a comment naming fetch() is not a call. */
function code(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** A call of the global fetch: `fetch(`, `window.fetch(`, `globalThis.fetch(`, `self.fetch(`; not `cache.fetch(` or `refetch(`. */
const FETCH_CALL = /(?:^|[^.\w$])fetch\s*\(|\b(?:window|globalThis|self)\s*\.\s*fetch\s*\(/;

const browserFiles = [
  ...sourceFiles("components"),
  ...sourceFiles("app").filter((file) => !file.startsWith(path.join("app", "api") + path.sep)),
  ...sourceFiles("lib").filter((file) => !isLibServerCode(file, fs.readFileSync(path.join(ROOT, file), "utf8"))),
];

describe("one API client in the browser", () => {
  it("reads the browser's files, the client among them", () => {
    expect(browserFiles.length).toBeGreaterThan(200);
    expect(browserFiles).toContain(CLIENT);
    expect(browserFiles).toContain(path.join("lib", "verifications", "hooks.ts"));
    expect(browserFiles).not.toContain(path.join("lib", "db", "client.ts"));
  });

  it("the client calls fetch, and no other browser file does", () => {
    const callers = browserFiles.filter((file) => FETCH_CALL.test(code(fs.readFileSync(path.join(ROOT, file), "utf8"))));
    expect(callers).toEqual([CLIENT]);
  });

  it("tells a call from a method or a comment", () => {
    expect(FETCH_CALL.test(code("const r = await fetch(url);"))).toBe(true);
    expect(FETCH_CALL.test(code("await window.fetch(url)"))).toBe(true);
    expect(FETCH_CALL.test(code("void query.refetch(); cache.fetch(key);"))).toBe(false);
    expect(FETCH_CALL.test(code("// read through fetch() and a stream\n/* fetch(x) */"))).toBe(false);
    expect(FETCH_CALL.test(code('const u = "https://x/y"; fetch(u)'))).toBe(true);
  });
});

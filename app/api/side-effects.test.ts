import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/*
 * Which GET routes the same-origin check covers (the route kit's `sideEffects`): SameSite=Lax sends the session
 * cookie with another site's link or image, so every GET that spends a quota or hands out a file must say so. Read
 * from the files themselves, so a new route is held to it without editing this test:
 *
 * - a GET hands out a file when it answers with csvFile() or attachment() (lib/api/route.ts);
 * - a GET spends a quota when it calls a server function whose body calls consumeQuota() (lib/db/quotas.ts).
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

function filesUnder(folder: string, accept: (name: string) => boolean): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => accept(path.basename(name)))
    .map((name) => path.join(folder, name));
}

/** The exported names of lib whose own text calls consumeQuota. */
function quotaSpenders(): Set<string> {
  const names = new Set<string>();
  for (const file of filesUnder("lib", (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))) {
    const source = fs.readFileSync(path.join(ROOT, file), "utf8");
    if (file.endsWith(path.join("db", "quotas.ts"))) continue;
    // Each top-level export runs until the next one.
    for (const chunk of source.split(/\n(?=export )/)) {
      const name = /^export (?:async )?(?:function|const) (\w+)/.exec(chunk)?.[1];
      if (name && /\bconsumeQuota\(/.test(chunk)) names.add(name);
    }
  }
  return names;
}

const getRoutes = filesUnder("app/api", (name) => name === "route.ts")
  .map((file) => ({ file, source: fs.readFileSync(path.join(ROOT, file), "utf8") }))
  .filter(({ source }) => /export const GET\b|as GET\b/.test(source));

describe("GET routes with side effects", () => {
  it("are exactly those that spend a quota or hand out a file", () => {
    const spenders = [...quotaSpenders()];
    expect(spenders).toEqual(expect.arrayContaining(["viewImage", "auditedVerificationExport"]));
    const expected = getRoutes
      .filter(({ source }) => /\b(csvFile|attachment)\(/.test(source) || spenders.some((name) => new RegExp(`\\b${name}\\(`).test(source)))
      .map(({ file }) => file)
      .sort();
    const marked = getRoutes
      .filter(({ source }) => /\bsideEffects: true\b/.test(source))
      .map(({ file }) => file)
      .sort();
    expect(marked).toEqual(expected);
    // Every export among them.
    for (const file of getRoutes.map((route) => route.file).filter((file) => file.includes("export"))) expect(marked).toContain(file);
    expect(marked).toEqual(
      expect.arrayContaining([
        path.join("app/api", "audit", "route.ts"),
        path.join("app/api", "media", "[token]", "route.ts"),
        path.join("app/api", "overview", "export", "route.ts"),
        path.join("app/api", "verifications", "export", "route.ts"),
      ]),
    );
  });
});

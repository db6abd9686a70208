import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

/*
 * Guard: every route that adds or removes a second factor, or changes a password, declares `stepUp` (the route
 * kit then asks for a fresh step-up, lib/api/route.ts). The routes come from the route table itself (every
 * app/api/**\/route.ts), so a new one is covered without editing this test. A route changes credentials when it
 * writes under /api/account/factors, or imports a factor function that is not a plain read (a new function of
 * lib/auth/server/factors.ts counts as a change until listed here as a read), or anything named for a password
 * other than checking one.
 */

const FACTOR_READS = new Set([
  "listFactors",
  "recoveryCodesLeft",
  "passkeyAllowedFor",
  "passkeyAuthenticationOptions",
  "verifyPasskey",
  "consumeCode",
  "factorCounts",
  "relyingParty",
]);
const WRITE_METHODS = ["POST", "PUT", "PATCH", "DELETE"];

/** Every route file under a folder (the route table: Next serves each `route.ts`). */
function routeFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name).split("\\").join("/");
    if (entry.isDirectory()) return routeFiles(path);
    return entry.name === "route.ts" ? [path] : [];
  });
}

function importedNames(source: string): Array<{ name: string; from: string }> {
  return [...source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)].flatMap(([, names = "", from = ""]) =>
    names
      .split(",")
      .map((name) =>
        name
          .replace(/^\s*type\s+/, "")
          .split(/\s+as\s+/)[0]!
          .trim(),
      )
      .filter(Boolean)
      .map((name) => ({ name, from })),
  );
}

/** Each write handler the file exports with the options it passes to `route(…)`. */
function writeHandlers(source: string): Array<{ method: string; options: string }> {
  return [...source.matchAll(/export const (\w+) = route\(\s*(\{[\s\S]*?\})\s*,\s*async/g)]
    .map(([, method = "", options = ""]) => ({ method, options }))
    .filter(({ method }) => WRITE_METHODS.includes(method));
}

function changesCredentials(file: string, source: string): boolean {
  if (file.startsWith("app/api/account/factors/")) return true;
  return importedNames(source).some(
    ({ name, from }) =>
      (from === "@/lib/auth/server/factors" && !FACTOR_READS.has(name)) || (/password/i.test(name) && !/^verify/i.test(name)),
  );
}

describe("routes that change a member's credentials", () => {
  const files = routeFiles("app/api");
  const guarded = files
    .map((file) => ({ file, source: readFileSync(file, "utf8") }))
    .filter(({ file, source }) => changesCredentials(file, source))
    .flatMap(({ file, source }) => writeHandlers(source).map((handler) => ({ file, ...handler })));

  it("finds them in the route table (the known ones at least)", () => {
    const found = new Set(guarded.map(({ file, method }) => `${method} ${file}`));
    for (const known of [
      "POST app/api/account/factors/totp/route.ts",
      "POST app/api/account/factors/totp/[id]/verify/route.ts",
      "POST app/api/account/factors/passkeys/options/route.ts",
      "POST app/api/account/factors/passkeys/route.ts",
      "DELETE app/api/account/factors/[id]/route.ts",
      "DELETE app/api/staff/[id]/factors/route.ts",
      "POST app/api/account/password/route.ts",
    ]) {
      expect(found, known).toContain(known);
    }
  });

  it("each declares a step-up", () => {
    const missing = guarded
      .filter(({ options }) => !/\bstepUp:\s*(true|"credentials")/.test(options))
      .map(({ file, method }) => `${method} ${file}`);
    expect(missing).toEqual([]);
  });
});

import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/*
 * Handlers get the database one way: from the route kit (`db` in the handler's input, lib/api/route.ts), handed on
 * to their feature's server functions. A route file never opens it itself (`getDb()`, `getDatabaseHandle()`) nor
 * imports the database client. Read from every app/api/**\/route.ts, so a new route is held to it.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

const routes = fs
  .readdirSync(path.join(ROOT, "app/api"), { recursive: true, encoding: "utf8" })
  .filter((name) => path.basename(name) === "route.ts")
  .map((name) => ({ file: path.join("app/api", name), source: fs.readFileSync(path.join(ROOT, "app/api", name), "utf8") }));

describe("route handlers and the database", () => {
  it("finds the route files", () => {
    expect(routes.length).toBeGreaterThan(60);
  });

  it("no route file opens the database or imports its client: the kit hands `db`", () => {
    const offenders = routes
      .filter(({ source }) => /\b(?:getDb|getDatabaseHandle)\s*\(/.test(source) || /from "@\/lib\/db\/client"/.test(source))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it("only the health route (liveness must not wait for the database) and the bench's floor go without it", () => {
    const without = routes.filter(({ source }) => /\bdatabase:\s*false\b/.test(source)).map(({ file }) => file);
    expect(without.sort()).toEqual([path.join("app/api", "bench", "proxy", "route.ts"), path.join("app/api", "health", "route.ts")]);
  });
});

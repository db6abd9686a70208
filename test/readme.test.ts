import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { describe, expect, it } from "vitest";

/*
 * The README is a newcomer's first map: its page list ("Who uses which page") must name every page the app has
 * (app/**\/page.tsx) and every entry of the navigation, and its features the features' table of the layering rules.
 * Read from the code, so a new page, navigation entry or feature missing from the README fails here. The navigation
 * and the table are found by their export names (NAV_ITEMS, ADMIN_SECTIONS, FEATURES), wherever their files live.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");

function filesUnder(folder: string, accept: (file: string) => boolean): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .map((name) => path.join(folder, name))
    .filter(accept);
}

/** The README's section under `heading`, up to the next one. */
function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no "## ${heading}"`);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

/** A page's path with its dynamic segments as `[]`: `/verifications/{public_id}` and `/verifications/[publicId]` agree. */
const normal = (page: string) => page.replace(/\{[^}]+\}|\[[^\]]+\]/g, "[]");

/** The pages the README names: every backticked path in its page list. */
const readmePages = new Set([...section("Who uses which page").matchAll(/`(\/[^`\s]*)`/g)].map((match) => normal(match[1]!)));

/** The app's pages, from its page.tsx files: route groups `(name)` leave no trace in the address. */
const appPages = filesUnder("app", (file) => path.basename(file) === "page.tsx").map((file) => {
  const segments = path
    .dirname(file)
    .split(path.sep)
    .slice(1)
    .filter((segment) => !/^\(.*\)$/.test(segment));
  return normal(`/${segments.join("/")}`);
});

/** The value of `export const <name>` in the first of `files` that declares it. */
async function exported<T>(name: string, files: string[]): Promise<T> {
  const declaring = files.find((file) => new RegExp(`export const ${name}\\b`).test(fs.readFileSync(path.join(ROOT, file), "utf8")));
  if (!declaring) throw new Error(`no module exports ${name}`);
  const loaded = (await import(pathToFileURL(path.join(ROOT, declaring)).href)) as Record<string, T>;
  return loaded[name]!;
}

const componentModules = filesUnder("components", (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
const rootModules = fs.readdirSync(ROOT).filter((file) => file.endsWith(".mjs"));

describe("README", () => {
  it("lists every page of the app, and no page the app does not have", () => {
    expect(appPages.length).toBeGreaterThan(10);
    expect([...readmePages].sort()).toEqual([...new Set(appPages)].sort());
  });

  it("lists every entry of the navigation and of the admin page", async () => {
    const nav = await exported<ReadonlyArray<{ href: string }>>("NAV_ITEMS", componentModules);
    const admin = await exported<ReadonlyArray<{ href: string }>>("ADMIN_SECTIONS", componentModules);
    const hrefs = [...nav, ...admin].map((item) => item.href);
    expect(hrefs.length).toBeGreaterThan(5);
    expect(hrefs.filter((href) => !readmePages.has(normal(href)))).toEqual([]);
  });

  it("names every feature of the layering rules' table", async () => {
    const features = Object.keys(await exported<Record<string, unknown>>("FEATURES", rootModules));
    const sentence = /features on top \(([^)]*)\)/.exec(section("How it is built").replace(/\s+/g, " "))?.[1] ?? "";
    const named = [...sentence.matchAll(/`([\w-]+)\/`/g)].map((match) => match[1]!);
    expect(features.length).toBeGreaterThan(10);
    expect(named.sort()).toEqual(features.sort());
  });
});

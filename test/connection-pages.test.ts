import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/*
 * Every signed-in page and the shell check the member's permission as it stands under the page's connection
 * (lib/connections/server/page.ts `requireConnectionPageUser`): a role's permission withheld on production must not
 * open a production page (issue 33, item 4). Enumerated from the tree, so a new page is covered without editing this.
 * The "not allowed" page alone uses the plain guard: it is where a refusal sends the member, under any connection.
 */

const ROOT = path.join(process.cwd(), "app", "(dashboard)");
const PLAIN_GUARD_ALLOWED = new Set(["not-allowed/page.tsx"]);

function entries(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entries(full);
    return /^(page|layout)\.tsx$/.test(entry.name) ? [path.relative(ROOT, full)] : [];
  });
}

describe("the signed-in pages' guard", () => {
  const files = entries(ROOT);

  it("finds the pages (the enumeration itself works)", () => {
    expect(files).toEqual(expect.arrayContaining(["layout.tsx", "page.tsx", "cases/page.tsx", "admin/staff/page.tsx"]));
  });

  it.each(files.filter((file) => !PLAIN_GUARD_ALLOWED.has(file)))(
    "%s guards with the connection's permissions, never the role's alone",
    (file) => {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      expect(text).not.toMatch(/\brequirePageUser\(/);
      // Every page guards; of the layouts, the shell does (a segment's layout leaves it to its pages).
      if (file.endsWith("page.tsx") || file === "layout.tsx") expect(text).toMatch(/\brequireConnectionPageUser\(/);
    },
  );
});

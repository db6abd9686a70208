import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { BUILT_IN_PERMISSIONS, BUILT_IN_ROLES, PERMISSIONS } from "@/lib/auth/permissions";
import en from "@/messages/en/roles.json";

/*
 * docs/permissions.md shows the catalogue and what each built-in role holds; the code (lib/auth/permissions.ts)
 * is the source. This holds the document's table to it: one row per permission in catalogue order, its English
 * label and explanation, and a tick exactly where a built-in role holds it.
 */

const doc = fs.readFileSync(path.join(process.cwd(), "docs", "permissions.md"), "utf8");
const catalogue = doc.slice(doc.indexOf("## The catalogue"), doc.indexOf("## Built-in roles"));
const cells = (line: string) =>
  line
    .split("|")
    .slice(1, -1)
    .map((cell) => cell.trim());
const tableLines = catalogue.split("\n").filter((line) => line.startsWith("|"));
const header = cells(tableLines[0] ?? "");
const rows = tableLines.filter((line) => line.startsWith("| `")).map(cells);

describe("docs/permissions.md", () => {
  it("names the built-in roles as columns, in the code's order", () => {
    expect(header.slice(2)).toEqual([...BUILT_IN_ROLES]);
  });

  it("lists every permission once, in catalogue order", () => {
    expect(rows.map((row) => row[0]?.replaceAll("`", ""))).toEqual([...PERMISSIONS]);
  });

  it("explains each with the role editor's English label and explanation", () => {
    const messages = en.permissions as Record<string, Record<string, { label: string; description: string }>>;
    for (const row of rows) {
      const [resource, action] = (row[0] ?? "").replaceAll("`", "").split(".") as [string, string];
      const text = messages[resource]?.[action];
      expect(row[1], row[0]).toBe(`${text?.label}: ${text?.description}`);
    }
  });

  it("ticks exactly what each built-in role holds", () => {
    for (const row of rows) {
      const permission = (row[0] ?? "").replaceAll("`", "");
      BUILT_IN_ROLES.forEach((role, index) => {
        const ticked = row[2 + index] === "✓";
        expect(ticked, `${role} ${permission}`).toBe((BUILT_IN_PERMISSIONS[role] as readonly string[]).includes(permission));
      });
    }
  });
});

import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/*
 * The trail is append-only for the application: no code path updates or deletes an audit event or a
 * retention checkpoint. The one delete is the retention prune, which only `npm run audit:prune`
 * (scripts/audit-prune.ts) imports. Tests are exempt: they tamper on purpose to prove the verifier.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SCANNED = ["app", "components", "lib", "scripts", "proxy.ts", "instrumentation.ts"];
const PRUNE_MODULE = "lib/audit-trail/server/prune.ts";

function sourceFiles(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [entry];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((child) => {
    const relative = path.join(entry, child.name);
    if (child.isDirectory()) return child.name === "node_modules" || child.name.startsWith(".") ? [] : sourceFiles(relative);
    return /\.(ts|tsx|mts|mjs|js)$/.test(child.name) && !/\.test\.tsx?$|\.spec\.tsx?$/.test(child.name) ? [relative] : [];
  });
}

const WRITES = [
  /\.\s*(update|delete)\s*\(\s*(auditEvents|auditCheckpoints)\b/,
  /\b(update|delete\s+from|truncate(\s+table)?)\s+"?(public"?\."?)?audit_(events|checkpoints)\b/i,
];

describe("the audit trail is append-only in the application", () => {
  const files = SCANNED.flatMap(sourceFiles);

  it("scans the application's sources", () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files).toContain(PRUNE_MODULE);
  });

  it("has no update or delete of audit events or checkpoints outside the retention prune", () => {
    const offenders = files.filter((file) => {
      if (file === PRUNE_MODULE) return false;
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      return WRITES.some((pattern) => pattern.test(text));
    });
    expect(offenders).toEqual([]);
  });

  it("lets only the prune script import the prune", () => {
    const importers = files.filter(
      (file) => file !== PRUNE_MODULE && /audit-trail\/server\/prune["']/.test(fs.readFileSync(path.join(ROOT, file), "utf8")),
    );
    expect(importers).toEqual(["scripts/audit-prune.ts"]);
  });
});

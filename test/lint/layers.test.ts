import path from "node:path";

import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

import { FEATURES, LAYERS } from "@/eslint.layers.mjs";

// The layering rule of `npm run lint` (eslint.layers.mjs), exercised: probe files that import the wrong way
// are linted as if they sat in the tree (nothing is written), and the tree itself must pass.

const root = path.resolve(import.meta.dirname, "../..");
const RULE = "import/no-restricted-paths";
const eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === RULE });

async function layeringErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === RULE).map((message) => message.message);
}

describe("npm run lint enforces the layering", () => {
  it.each([
    ["lib/verifications/probe.ts", `import { Button } from "@/components/ui/button";`, "lib/ never imports app/ or components/"],
    ["lib/cases/server/probe.ts", `import { Providers } from "@/app/providers";`, "lib/ never imports app/ or components/"],
    ["components/ui/probe.tsx", `import { setLocale } from "@/app/(dashboard)/layout";`, "components/ never imports app/"],
    ["components/cases/probe.tsx", `import { listQueue } from "@/lib/cases/server/store";`, "Browser code never imports server code"],
    ["lib/cases/probe.ts", `import { getDb } from "@/lib/db/client";`, "Browser code never imports server code"],
    ["lib/db/probe.ts", `import { requireUser } from "@/lib/auth/server/require-role";`, "The db layer imports only the layers below it"],
    ["lib/shared/probe.ts", `import { config } from "@/lib/config";`, "The shared layer imports only the layers below it (none)"],
    ["lib/upstream/probe.ts", `import { listVerifications } from "@/lib/verifications/server/list";`, "The upstream layer imports only"],
    [
      "lib/webhooks/server/probe.ts",
      `import { caseListener } from "@/lib/cases/server/ingest";`,
      "The webhooks feature imports no other feature",
    ],
    ["lib/kyc/probe.ts", `import { cpfLookupSchema } from "@/lib/lookups/validation";`, "The kyc feature imports no other feature"],
  ])("refuses %s importing the wrong way", async (file, code, message) => {
    const errors = await layeringErrors(file, `${code}\nexport const probe = 1;\n`);
    expect(errors.length, `no layering error for ${file}`).toBeGreaterThan(0);
    expect(errors.join("\n")).toContain(message);
  });

  it("allows the directions the layering gives", async () => {
    expect(
      await layeringErrors(
        "lib/cases/server/probe.ts",
        `import { getDb } from "@/lib/db/client";\nimport { onVerificationChange } from "@/lib/webhooks/server/changes";\nexport const probe = [getDb, onVerificationChange];\n`,
      ),
    ).toEqual([]);
    expect(
      await layeringErrors("components/cases/probe.tsx", `import { QUEUES } from "@/lib/cases/rules";\nexport const probe = QUEUES;\n`),
    ).toEqual([]);
  });

  it("the features' table is acyclic and names only features", () => {
    const names = Object.keys(FEATURES);
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (name: string, trail: string[]): void => {
      expect(visiting.has(name), `cycle: ${[...trail, name].join(" → ")}`).toBe(false);
      if (done.has(name)) return;
      visiting.add(name);
      for (const next of FEATURES[name] ?? []) {
        expect(names).toContain(next);
        visit(next, [...trail, name]);
      }
      visiting.delete(name);
      done.add(name);
    };
    for (const name of names) visit(name, []);
    expect(new Set(LAYERS.map((layer) => layer.name)).size).toBe(LAYERS.length);
  });

  it("the tree passes", { timeout: 240_000 }, async () => {
    const results = await eslint.lintFiles(["app", "components", "lib", "proxy.ts", "instrumentation.ts"]);
    const problems = results.flatMap((result) =>
      result.messages
        .filter((message) => message.ruleId === RULE)
        .map((message) => `${path.relative(root, result.filePath)}:${message.line} ${message.message}`),
    );
    expect(problems).toEqual([]);
  });
});

import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

import { FEATURES, LAYERS } from "@/eslint.layers.mjs";

// The import rules of `npm run lint` (eslint.layers.mjs, eslint.config.mjs), exercised: probe files that import
// the wrong way are linted as if they sat in the tree (nothing is written, but for the cycle, which needs both
// files on disk), and the tree itself must pass.

const root = path.resolve(import.meta.dirname, "../..");
const RULE = "import/no-restricted-paths";
const RELATIVE = ["no-restricted-imports", "no-restricted-syntax"];
const CYCLE = "import/no-cycle";
const SIZE = ["max-lines", "max-lines-per-function"];
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId === RULE || RELATIVE.includes(ruleId) || SIZE.includes(ruleId),
});

async function errorsOf(file: string, code: string, rules: string[]): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((message) => rules.includes(message.ruleId ?? "")).map((message) => message.message);
}

const layeringErrors = (file: string, code: string) => errorsOf(file, code, [RULE]);

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
    // components/<name> follows lib/<name>'s rule: verifications may import cases, not the reverse.
    [
      "components/cases/probe.tsx",
      `import { StatusBadge } from "@/components/verifications/status-badge";`,
      "The cases feature imports only these features",
    ],
    ["components/cases/probe.tsx", `import { useRelatedVerifications } from "@/lib/verifications/hooks";`, "The cases feature"],
    ["components/ui/probe.tsx", `import { QUEUES } from "@/lib/cases/rules";`, "components/ui is the UI base"],
    ["components/ui/probe.tsx", `import { StateBadge } from "@/components/cases/case-badges";`, "components/ui is the UI base"],
    ["components/ui/probe.tsx", `import { ROLES } from "@/lib/auth/roles";`, "components/ui is the UI base"],
    ["components/auth/probe.tsx", `import { staffKeys } from "@/lib/staff/hooks";`, "The auth layer imports only the layers below it"],
    ["components/cases/probe.tsx", `import { MainNav } from "@/components/layout/main-nav";`, "components/layout is the shell"],
  ])("refuses %s importing the wrong way", async (file, code, message) => {
    const errors = await layeringErrors(file, `${code}\nexport const probe = 1;\n`);
    expect(errors.length, `no layering error for ${file}`).toBeGreaterThan(0);
    expect(errors.join("\n")).toContain(message);
  });

  it("allows the directions the layering gives", async () => {
    for (const [file, code] of [
      [
        "lib/cases/server/probe.ts",
        `import { getDb } from "@/lib/db/client";\nimport { onVerificationChange } from "@/lib/webhooks/server/changes";\nexport const probe = [getDb, onVerificationChange];\n`,
      ],
      ["components/cases/probe.tsx", `import { QUEUES } from "@/lib/cases/rules";\nexport const probe = QUEUES;\n`],
      [
        "components/privacy/probe.tsx",
        `import { CpfField } from "@/components/ui/cpf-field";\nimport { StatusBadge } from "@/components/verifications/status-badge";\nimport { StateBadge } from "@/components/cases/case-badges";\nexport const probe = [CpfField, StatusBadge, StateBadge];\n`,
      ],
      [
        "components/layout/probe.tsx",
        `import { CaseSearch } from "@/components/cases/case-search";\nimport { caseKeys } from "@/lib/cases/hooks";\nexport const probe = [CaseSearch, caseKeys];\n`,
      ],
      [
        "components/ui/probe.tsx",
        `import { formatCpf } from "@/lib/shared/cpf";\nimport { LOCALES } from "@/lib/i18n/locales";\nimport type { Verification } from "@/lib/upstream/model/verification";\nexport const probe: [unknown, unknown, Verification | null] = [formatCpf, LOCALES, null];\n`,
      ],
    ] as const) {
      expect(await layeringErrors(file, code), file).toEqual([]);
    }
  });

  it("refuses a `../` import, static or dynamic, and allows `./x` and `@/`", async () => {
    for (const code of [`import { cpfDigits } from "../shared/cpf";`, `export const later = () => import("../shared/cpf");`]) {
      const errors = await errorsOf("lib/cases/probe.ts", `${code}\nexport const probe = 1;\n`, RELATIVE);
      expect(errors.join("\n"), code).toContain("Import with `@/`");
    }
    expect(
      await errorsOf(
        "lib/cases/probe.ts",
        `import { cpfDigits } from "@/lib/shared/cpf";\nimport { QUEUES } from "./rules";\nexport const probe = [cpfDigits, QUEUES];\n`,
        RELATIVE,
      ),
    ).toEqual([]);
  });

  it("refuses a two-file import cycle", async () => {
    // The cycle search reads the other file from disk: both are written in a folder of their own, then removed.
    const folder = path.join(root, "lib/shared", `lint-probe-cycle-${process.pid}`);
    mkdirSync(folder, { recursive: true });
    try {
      writeFileSync(path.join(folder, "a.ts"), `import { b } from "./b";\nexport const a = () => b;\n`);
      writeFileSync(path.join(folder, "b.ts"), `import { a } from "./a";\nexport const b = () => a;\n`);
      const cycle = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === CYCLE });
      const results = await cycle.lintFiles([path.join(folder, "a.ts"), path.join(folder, "b.ts")]);
      for (const result of results) {
        expect(result.messages.map((message) => `${message.ruleId} ${message.message}`)).toEqual([`${CYCLE} Dependency cycle detected.`]);
      }
      expect(results).toHaveLength(2);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("refuses a source file over 400 lines and a component over 150, and takes them at the limit", async () => {
    const lines = (count: number) => Array.from({ length: count }, (_, index) => `export const line${index} = ${index};`).join("\n");
    expect(await errorsOf("lib/shared/probe.ts", lines(400), SIZE)).toEqual([]);
    expect(await errorsOf("lib/shared/probe.ts", lines(401), SIZE)).toEqual([expect.stringContaining("Maximum allowed is 400")]);
    const component = (count: number) =>
      `export function Probe() {\n${Array.from({ length: count - 3 }, (_, index) => `  const line${index} = ${index};`).join("\n")}\n  return null;\n}`;
    expect(await errorsOf("components/ui/probe.tsx", component(150), SIZE)).toEqual([]);
    expect(await errorsOf("components/ui/probe.tsx", component(151), SIZE)).toEqual([expect.stringContaining("Maximum allowed is 150")]);
  });

  it("every components folder is ui, layout or mirrors a lib folder", () => {
    const libFolders = readdirSync(path.join(root, "lib"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const mirrorsNothing = readdirSync(path.join(root, "components"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .filter((name) => name !== "ui" && name !== "layout" && !libFolders.includes(name));
    expect(mirrorsNothing, "components/<name> must mirror lib/<name> (or be ui/ or layout/)").toEqual([]);
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
        .filter((message) => message.ruleId === RULE || RELATIVE.includes(message.ruleId ?? "") || SIZE.includes(message.ruleId ?? ""))
        .map((message) => `${path.relative(root, result.filePath)}:${message.line} ${message.message}`),
    );
    expect(problems).toEqual([]);
  });
});

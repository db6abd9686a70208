// The configuration variables of the dashboard and the sandbox, as .env.example documents them, each set to
// "" (which lib/config/, sandbox/config.ts and scripts/run.mjs read as unset). A test spreads this under
// its own values so the server or CLI it starts never picks up whatever the host's environment holds.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Read by the sandbox (sandbox/config.ts) but not documented in .env.example: a development knob.
const UNDOCUMENTED = ["SANDBOX_PAGE_PARAM"];

/** Every documented variable name, `FOO=` or `# FOO=` at the start of a line of .env.example. */
export function documentedVariables() {
  const text = fs.readFileSync(path.join(root, ".env.example"), "utf8");
  const names = [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
  return [...new Set([...names, ...UNDOCUMENTED])];
}

/** Each documented variable blanked. */
export function blankAppEnv() {
  return Object.fromEntries(documentedVariables().map((name) => [name, ""]));
}

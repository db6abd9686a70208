import fs from "node:fs";
import path from "node:path";

import { expect, test } from "./fixtures";

/*
 * The production build the browser tests run against must not carry a server secret in anything the
 * browser can download. The embedded default's secrets are the sandbox's demo credentials and the
 * generated session/sealing secrets; a secret that reaches a client component lands in these files.
 */

const distDir = path.resolve(process.env.NEXT_DIST_DIR ?? ".next");
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? path.join(".test-data", "e2e"));

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

test("no server secret is in the client bundle or the HTML of a page", async ({ adminPage }) => {
  const generated = JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as Record<string, string>;
  const secrets: Record<string, string> = {
    "core API key": "sbx_core_view_media",
    "partner password": "sandbox-partner-password",
    "integration token": "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10",
    ...Object.fromEntries(Object.entries(generated).map(([name, value]) => [`generated ${name} secret`, value])),
  };

  const clientFiles = filesUnder(path.join(distDir, "static"));
  expect(clientFiles.length, "the build has client files").toBeGreaterThan(10);
  const hits: string[] = [];
  for (const file of clientFiles) {
    const text = fs.readFileSync(file, "latin1");
    for (const [name, value] of Object.entries(secrets)) if (text.includes(value)) hits.push(`${name} in ${path.relative(distDir, file)}`);
  }
  // Signed in as admin, so each page renders its real content (and any prop handed to a client component).
  for (const page of ["/sign-in", "/verifications", "/lookups/cpf", "/kyc", "/admin"]) {
    const response = await adminPage.request.get(page);
    expect(response.status(), page).toBe(200);
    const html = await response.text();
    for (const [name, value] of Object.entries(secrets)) if (html.includes(value)) hits.push(`${name} in the HTML of ${page}`);
  }
  expect(hits).toEqual([]);
});

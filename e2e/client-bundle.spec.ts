import fs from "node:fs";
import path from "node:path";

import { expect, serverSecrets, test } from "./fixtures";

/*
 * The production build the browser tests run against must not carry a server secret in anything the
 * browser can download. The embedded default's secrets are the sandbox's demo credentials and the
 * generated session/sealing secrets; a secret that reaches a client component lands in these files.
 */

const distDir = path.resolve(process.env.NEXT_DIST_DIR ?? ".next");

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

test("no server secret is in the client bundle or the HTML of a page", async ({ adminPage }) => {
  const secrets = serverSecrets();

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

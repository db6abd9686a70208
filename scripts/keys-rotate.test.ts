import fs from "node:fs";
import path from "node:path";

import { expect, it } from "vitest";

import { describeEachDatabase } from "@/test/db";
import { freshTarget, npmRun } from "@/test/scripts";

/*
 * `npm run keys:rotate` in embedded mode, as an operator runs it: the rings live in a throwaway DATA_DIR's
 * secrets.json (no secret variable set), the database is an empty PGlite folder or a fresh PostgreSQL database.
 * Checked: what the file holds after each command, the exit codes (0 done, 1 refused, 2 usage), what the
 * status counts, and that no secret from the file is ever printed.
 */

const SLOW = 240_000;
const NO_SECRETS = {
  NEXTAUTH_SECRET: "",
  MEDIA_SEAL_SECRET: "",
  AUDIT_HASH_SECRET: "",
  DATA_ENCRYPTION_SECRET: "",
  WEBHOOK_SIGNING_SECRET: "",
};

/** `npm run keys:rotate -- <args>` with no secret variable set: the rings come from DATA_DIR's secrets.json. */
const keysRotate = (args: string[], env: Record<string, string>) => npmRun("keys:rotate", args, { ...NO_SECRETS, ...env });

const ringOf = (dataDir: string, field: string) =>
  (JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as Record<string, string>)[field]!;
const idsOf = (ring: string) => ring.split(",").map((entry) => (entry.includes(":") ? entry.split(":")[0] : "(plain)"));
const secretsOf = (dataDir: string) =>
  Object.values(JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as Record<string, string>).flatMap((ring) =>
    ring.split(",").map((entry) => entry.slice(entry.indexOf(":") + 1)),
  );

describeEachDatabase("npm run keys:rotate in embedded mode on $name", ({ name }) => {
  it(
    "puts a new key first, keeps the old one, refuses to retire the current key or one still needed, and never prints a secret",
    async () => {
      const { env, query } = await freshTarget(name);
      const dataDir = env.DATA_DIR!;

      // The first run generates the secrets (one plain key each), then a status reads an empty database.
      const first = await keysRotate(["--status"], env);
      expect(first.code).toBe(0);
      const plainMedia = ringOf(dataDir, "mediaSeal");
      expect(idsOf(plainMedia)).toEqual(["(plain)"]);

      const rotated = await keysRotate(["media-seal"], env);
      expect(rotated.code).toBe(0);
      const media = ringOf(dataDir, "mediaSeal");
      const [newId] = idsOf(media);
      expect(newId).toMatch(/^\d{4}-\d{2}-\d{2}T\d{4}$/);
      // The old plain secret kept as key "1", the new one first.
      expect(idsOf(media)).toEqual([newId, "1"]);
      expect(media.endsWith(`,1:${plainMedia}`)).toBe(true);
      expect(rotated.stdout).toContain(`media-seal: key ${newId} put first`);
      // The other rings are untouched.
      expect(idsOf(ringOf(dataDir, "nextAuth"))).toEqual(["(plain)"]);
      // Twice in the same minute: a distinct id.
      expect((await keysRotate(["media-seal"], env)).code).toBe(0);
      const thrice = idsOf(ringOf(dataDir, "mediaSeal"));
      expect(thrice).toHaveLength(3);
      expect(new Set(thrice).size).toBe(3);

      const current = await keysRotate(["--retire", "media-seal", thrice[0]!], env);
      expect(current.code).toBe(1);
      expect(current.stderr).toContain("is the current key and cannot be retired");
      expect((await keysRotate(["--retire", "media-seal", "nope"], env)).code).toBe(1);
      expect((await keysRotate(["nothing-such"], env)).code).toBe(2);

      // A CPF hash in the search index under the audit key "1": after a rotation, "1" is still needed.
      await query("insert into verification_index (public_id, cpf_hash, cpf_key_id) values ('ver_keys_test', 'h', '1')");
      expect((await keysRotate(["audit-hash"], env)).code).toBe(0);
      const status = await keysRotate(["--status"], env);
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/^audit-hash \(/m);
      expect(status.stdout).toMatch(/^ {2}1 {2}still needed: 1 CPF hashes in the search index$/m);
      expect(status.stdout).toMatch(new RegExp(`^ {2}${thrice[1]} {2}nothing stored depends on it$`, "m"));
      const needed = await keysRotate(["--retire", "audit-hash", "1"], env);
      expect(needed.code).toBe(1);
      expect(needed.stderr).toContain("still opens or verifies 1 CPF hashes in the search index");
      expect(idsOf(ringOf(dataDir, "auditHash"))).toHaveLength(2);

      // An older media key nothing depends on goes.
      const retired = await keysRotate(["--retire", "media-seal", "1"], env);
      expect(retired.code).toBe(0);
      expect(idsOf(ringOf(dataDir, "mediaSeal"))).toEqual(thrice.slice(0, 2));

      const printed = [first, rotated, current, status, needed, retired].map((run) => run.stdout + run.stderr).join("\n");
      for (const secret of secretsOf(dataDir)) expect(printed).not.toContain(secret);
      expect(printed).not.toContain(plainMedia);
    },
    SLOW,
  );
});

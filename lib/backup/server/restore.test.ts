import fs from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { beforeAll, expect, it } from "vitest";

import type { DataLocations } from "@/lib/config";
import { createDatabase, shippedMigrations } from "@/lib/db/client";
import { tempFolder } from "@/test/scripts";

import { writeArchive } from "./archive";
import { BackupRefused } from "./refused";
import { restoreEmbedded } from "./restore";

/*
 * A restore that cannot finish leaves the target as it found it (restore.ts): checked before anything moves where it
 * can be (an archive from a newer version), and, where a check needs the database loaded (its migrations against the
 * manifest's), what the restore wrote is removed and what --force moved aside is moved back. The whole way through,
 * as an operator runs it, is in scripts/db-backup.test.ts.
 */

let tarball: Buffer;

beforeAll(async () => {
  const handle = await createDatabase({ pglite: new PGlite() });
  try {
    tarball = Buffer.from(await (await handle.snapshot!()).tarball.arrayBuffer());
  } finally {
    await handle.close();
  }
}, 120_000);

/** A DATA_DIR in use (a database folder and secrets) and a head file beside it, and what they hold. */
function target(): { locations: DataLocations; root: string; snapshot: () => Record<string, string> } {
  const root = tempFolder();
  const dataDir = path.join(root, "data");
  fs.mkdirSync(path.join(dataDir, "pglite"), { recursive: true });
  fs.writeFileSync(path.join(dataDir, "pglite", "PG_VERSION"), "17\n");
  fs.writeFileSync(path.join(dataDir, "secrets.json"), '{"old":true}');
  fs.writeFileSync(path.join(root, "data-audit-head.json"), '{"throughEventId":9}');
  const snapshot = () =>
    Object.fromEntries(
      (fs.readdirSync(root, { recursive: true }) as string[]).sort().map((name) => {
        const full = path.join(root, name);
        return [name, fs.statSync(full).isDirectory() ? "dir" : fs.readFileSync(full, "utf8")];
      }),
    );
  return { locations: { databaseUrl: undefined, dataDir, auditHeadFile: undefined, secretVariablesSet: [] }, root, snapshot };
}

function archive(root: string, migrations: number): string {
  const file = path.join(root, "backup.kycbackup");
  writeArchive(
    file,
    { createdAt: new Date().toISOString(), appVersion: "0.1.0", migrations, source: "running server" },
    { "database.tar.gz": tarball, "secrets.json": Buffer.from('{"new":true}'), "audit-head.json": Buffer.from('{"throughEventId":3}') },
  );
  return file;
}

it("refuses an archive from a newer version before moving anything", async () => {
  const { locations, root, snapshot } = target();
  const file = archive(root, shippedMigrations() + 1);
  const before = snapshot();
  await expect(restoreEmbedded({ file, force: true }, locations)).rejects.toThrow(/made by a newer version/);
  expect(snapshot()).toEqual(before);
});

it("takes back what it did when the loaded database is not the one its manifest describes", async () => {
  const { locations, root, snapshot } = target();
  const file = archive(root, shippedMigrations() - 1);
  const before = snapshot();
  const failure = restoreEmbedded({ file, force: true }, locations);
  await expect(failure).rejects.toBeInstanceOf(BackupRefused);
  await expect(failure).rejects.toThrow(`holds ${shippedMigrations()} migrations where its manifest says ${shippedMigrations() - 1}`);
  expect(snapshot()).toEqual(before);
}, 120_000);

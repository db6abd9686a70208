import fs from "node:fs";
import path from "node:path";

import { expect, it } from "vitest";

import { tempFolder } from "@/test/scripts";

import { readArchive, writeArchive } from "./archive";
import { BackupRefused } from "./refused";

/*
 * The backup archive's container (archive.ts): what it writes reads back whole, and a file that is not an intact
 * archive of this format is refused, naming what is wrong, before a restore touches anything.
 */

const HEADER = { createdAt: "2026-03-09T12:00:00.000Z", appVersion: "0.1.0", migrations: 21, source: "running server" } as const;
const ENTRIES = {
  "database.tar.gz": Buffer.from("the database's tarball"),
  "secrets.json": Buffer.from('{"auditHash":"…"}'),
  "audit-head.json": Buffer.from('{"throughEventId":7}'),
};

function written(): string {
  const file = path.join(tempFolder(), "backup.kycbackup");
  writeArchive(file, HEADER, ENTRIES);
  return file;
}

/** The archive with its manifest line replaced by `edit`'s answer (the content left as it is). */
function withManifest(file: string, edit: (manifest: Record<string, unknown>) => unknown): void {
  const bytes = fs.readFileSync(file);
  const first = bytes.indexOf(0x0a);
  const second = bytes.indexOf(0x0a, first + 1);
  const manifest = JSON.parse(bytes.subarray(first + 1, second).toString()) as Record<string, unknown>;
  fs.writeFileSync(
    file,
    Buffer.concat([bytes.subarray(0, first + 1), Buffer.from(`${JSON.stringify(edit(manifest))}\n`), bytes.subarray(second + 1)]),
  );
}

function refusal(file: string): string {
  try {
    readArchive(file);
  } catch (error) {
    expect(error).toBeInstanceOf(BackupRefused);
    return (error as Error).message;
  }
  throw new Error(`${file} was read as an archive`);
}

it("reads back what it wrote, with its manifest, the file only its owner's", () => {
  const file = written();
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  const { manifest, entries } = readArchive(file);
  expect(manifest).toMatchObject({ format: 1, ...HEADER });
  expect(manifest.entries.map((entry) => entry.name)).toEqual(["database.tar.gz", "secrets.json", "audit-head.json"]);
  expect(entries).toEqual(ENTRIES);
  expect(fs.readdirSync(path.dirname(file))).toEqual(["backup.kycbackup"]);
});

it("never replaces a file: a second backup under the same name is refused and the first stays whole", () => {
  const file = written();
  const before = fs.readFileSync(file);
  expect(() => writeArchive(file, HEADER, { "database.tar.gz": Buffer.from("another") })).toThrow(BackupRefused);
  expect(fs.readFileSync(file)).toEqual(before);
  expect(fs.readdirSync(path.dirname(file))).toEqual(["backup.kycbackup"]);
});

it("refuses a foreign file", () => {
  const folder = tempFolder();
  const json = path.join(folder, "secrets.json");
  fs.writeFileSync(json, '{"auditHash":"x"}\n');
  expect(refusal(json)).toContain("it does not start as one");
  const empty = path.join(folder, "empty");
  fs.writeFileSync(empty, "");
  expect(refusal(empty)).toContain("it does not start as one");
});

it("refuses an archive cut off or with content altered", () => {
  const cut = written();
  fs.truncateSync(cut, fs.statSync(cut).size - 3);
  expect(refusal(cut)).toContain("cut off or altered");

  const altered = written();
  const bytes = fs.readFileSync(altered);
  const at = bytes.indexOf("tarball");
  bytes[at] = bytes[at]! ^ 0xff;
  fs.writeFileSync(altered, bytes);
  expect(refusal(altered)).toContain("its database.tar.gz does not match its checksum");
});

it("refuses another format version, a manifest that is not one, and one without a database", () => {
  const newer = written();
  withManifest(newer, (manifest) => ({ ...manifest, format: 2 }));
  expect(refusal(newer)).toContain("it is in format 2, this version reads format 1");

  const broken = written();
  withManifest(broken, ({ migrations: _migrations, ...manifest }) => manifest);
  expect(refusal(broken)).toContain("its manifest lacks fields or holds wrong ones");

  const noDatabase = path.join(tempFolder(), "secrets-only.kycbackup");
  writeArchive(noDatabase, HEADER, { "secrets.json": ENTRIES["secrets.json"] });
  expect(refusal(noDatabase)).toContain("it holds no database");
});

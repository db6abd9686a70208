import "server-only";

import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";

import { z } from "zod";

import { BackupRefused } from "./refused";

/*
 * The backup archive: one file, our own container rather than tar (no dependency, and nothing to unpack before the
 * manifest is checked). A first line naming the format, a line of JSON (the manifest: format version, when, the app's
 * version, migrations applied, and each entry's name, length and SHA-256), then the entries' bytes one after the
 * other in the manifest's order. A reader checks all of it (format, lengths, checksums) before anything is written.
 */

const MAGIC = "KYC-DASHBOARD-BACKUP";
const FORMAT = 1;
/** A manifest is a few hundred bytes; a file without a line break this early is not an archive. */
const MAX_MANIFEST_BYTES = 64 * 1024;

/** What an archive may hold: the database is required, the others are kept when they exist. */
export const ENTRY_NAMES = ["database.tar.gz", "secrets.json", "audit-head.json"] as const;
export type EntryName = (typeof ENTRY_NAMES)[number];

const manifestSchema = z.object({
  format: z.number().int(),
  createdAt: z.iso.datetime(),
  appVersion: z.string(),
  /** Migrations applied in the copied database. */
  migrations: z.number().int().min(0),
  /** Where the database was copied from. */
  source: z.enum(["running server", "stopped database"]),
  entries: z.array(z.object({ name: z.enum(ENTRY_NAMES), bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});

export type Manifest = z.infer<typeof manifestSchema>;

export interface Archive {
  manifest: Manifest;
  entries: Partial<Record<EntryName, Buffer>>;
}

function startsWithMagic(file: string): boolean {
  const start = Buffer.alloc(MAGIC.length + 1);
  const descriptor = fs.openSync(file, "r");
  try {
    const read = fs.readSync(descriptor, start, 0, start.length, 0);
    return read === start.length && start.toString("latin1") === `${MAGIC}\n`;
  } finally {
    fs.closeSync(descriptor);
  }
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * Writes the archive (mode 0600) without ever replacing a file: written beside its name first, then linked to it,
 * which fails when the name is taken, so a backup never overwrites another, nor leaves half a file under its name.
 */
export function writeArchive(
  file: string,
  header: Omit<Manifest, "format" | "entries">,
  entries: Partial<Record<EntryName, Buffer>>,
): number {
  const present = ENTRY_NAMES.filter((name) => entries[name] !== undefined);
  const manifest: Manifest = {
    format: FORMAT,
    ...header,
    entries: present.map((name) => ({ name, bytes: entries[name]!.length, sha256: sha256(entries[name]!) })),
  };
  const bytes = Buffer.concat([Buffer.from(`${MAGIC}\n${JSON.stringify(manifest)}\n`), ...present.map((name) => entries[name]!)]);
  const temporary = `${file}.${randomUUID()}.tmp`;
  fs.writeFileSync(temporary, bytes, { mode: 0o600, flag: "wx" });
  try {
    fs.linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new BackupRefused(`${file} exists: name another file with --out`);
    throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return bytes.length;
}

/** Reads and checks an archive whole; a file that is not one, or not intact, is refused naming what is wrong. */
export function readArchive(file: string): Archive {
  const refuse = (why: string) => new BackupRefused(`${file} is not a backup this dashboard can restore: ${why}`);
  // The first line before the whole file: a wrong file named by mistake (a video, a disk image) is not read into memory.
  if (!startsWithMagic(file)) throw refuse("it does not start as one");
  const bytes = fs.readFileSync(file);
  const magicEnd = MAGIC.length;
  const manifestEnd = bytes.indexOf(0x0a, magicEnd + 1);
  if (manifestEnd < 0 || manifestEnd - magicEnd > MAX_MANIFEST_BYTES) throw refuse("its manifest is cut off");
  let parsed: ReturnType<typeof manifestSchema.safeParse>;
  try {
    parsed = manifestSchema.safeParse(JSON.parse(bytes.subarray(magicEnd + 1, manifestEnd).toString("utf8")));
  } catch {
    throw refuse("its manifest is not JSON");
  }
  if (!parsed.success) throw refuse("its manifest lacks fields or holds wrong ones");
  const manifest = parsed.data;
  if (manifest.format !== FORMAT) throw refuse(`it is in format ${manifest.format}, this version reads format ${FORMAT}`);
  if (!manifest.entries.some((entry) => entry.name === "database.tar.gz")) throw refuse("it holds no database");
  if (new Set(manifest.entries.map((entry) => entry.name)).size !== manifest.entries.length)
    throw refuse("its manifest names an entry twice");
  const expected = manifest.entries.reduce((sum, entry) => sum + entry.bytes, 0);
  const found = bytes.length - manifestEnd - 1;
  if (found !== expected) throw refuse(`its manifest announces ${expected} bytes of content, the file holds ${found} (cut off or altered)`);
  const entries: Archive["entries"] = {};
  let offset = manifestEnd + 1;
  for (const entry of manifest.entries) {
    const content = bytes.subarray(offset, offset + entry.bytes);
    offset += entry.bytes;
    if (sha256(content) !== entry.sha256) throw refuse(`its ${entry.name} does not match its checksum (damaged or altered)`);
    entries[entry.name] = content;
  }
  return { manifest, entries };
}

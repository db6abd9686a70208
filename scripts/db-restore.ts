// `npm run db:restore -- FILE [--force] [--server-stopped]`: puts a `db:backup` archive back: the embedded database
// into DATA_DIR, its secrets.json, and the audit head file where AUDIT_HEAD_FILE says (lib/backup/server/restore.ts).
// It checks the whole archive first, and refuses while a dashboard runs on DATA_DIR, and when DATA_DIR is not empty
// or a head file is already there, unless --force: then those are renamed `<name>.replaced-<time>`, never deleted.
// --server-stopped is only needed where DATA_DIR's path is too long for the server's socket. With DATABASE_URL set it
// refuses: PostgreSQL is restored with pg_restore (docs/operations.md, "Backups").
// Exit codes: 0 restored, 1 refused (nothing changed), 2 usage error or failure (what it wrote is taken back).
import { parseArgs } from "node:util";

import { BackupRefused } from "@/lib/backup/server/refused";
import { restoreEmbedded } from "@/lib/backup/server/restore";

import { runCli, UsageError } from "./cli";

const USAGE = "usage: npm run db:restore -- <file> [--force] [--server-stopped]";

function parse(): { file: string; force: boolean; serverStopped: boolean } {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const [file, ...rest] = parsed.positionals;
  if (!file || rest.length) throw new UsageError("name one archive");
  return { file, force: parsed.values.force, serverStopped: parsed.values["server-stopped"] };
}

function parseOptions() {
  return parseArgs({
    options: { force: { type: "boolean", default: false }, "server-stopped": { type: "boolean", default: false } },
    strict: true,
    allowPositionals: true,
  });
}

async function main(): Promise<void> {
  const result = await restoreEmbedded(parse());
  const { manifest } = result;
  console.log(
    `restored into ${result.dataDir}: the database of ${manifest.createdAt} (${manifest.source}, version ${manifest.appVersion}, ${manifest.migrations} migrations)`,
  );
  for (const [from, to] of result.movedAside) console.log(`  moved aside (kept): ${from} -> ${to}`);
  console.log(
    result.secretsRestored
      ? "  secrets: DATA_DIR/secrets.json restored"
      : "  secrets: none in the archive (they came from the environment): set the same values",
  );
  if (result.secretVariablesSet.length)
    console.log(
      `  set in the environment, overriding the restored file: ${result.secretVariablesSet.join(", ")}: they must hold the backup's values`,
    );
  console.log(
    result.headFile
      ? `  audit head kept outside the database: ${result.headFile}`
      : "  audit head kept outside the database: none restored",
  );
  console.log("Next: npm run audit:verify (the trail and the restored head), then start the dashboard (it applies newer migrations).");
}

runCli(main, { usage: USAGE, lead: "db:restore", exitCode: (error) => (error instanceof BackupRefused ? 1 : 2) });

// `npm run db:backup [-- --out FILE] [--server-stopped]`: the embedded database (PGlite in DATA_DIR), its secrets
// (DATA_DIR/secrets.json) and the audit head kept outside the database, in one archive written 0600
// (lib/backup/server/backup.ts). With the dashboard running, its server copies its own open database over the socket
// in DATA_DIR (consistent, between two transactions); stopped, this opens the folder itself. --server-stopped is only
// needed where DATA_DIR's path is too long for that socket. With DATABASE_URL set it refuses: PostgreSQL is backed up
// with pg_dump (docs/operations.md, "Backups").
// Exit codes: 0 written, 1 refused (DATABASE_URL, no database, the file exists), 2 usage error or failure.
import { parseArgs } from "node:util";

import { backupEmbedded } from "@/lib/backup/server/backup";
import { BackupRefused } from "@/lib/backup/server/refused";

import { runCli, UsageError } from "./cli";

const USAGE = "usage: npm run db:backup [-- --out <file>] [--server-stopped]";

function parse(): { out?: string; serverStopped: boolean } {
  try {
    const { values } = parseArgs({
      options: { out: { type: "string" }, "server-stopped": { type: "boolean", default: false } },
      strict: true,
      allowPositionals: false,
    });
    return { out: values.out, serverStopped: values["server-stopped"] };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const result = await backupEmbedded(parse());
  const from = result.manifest.source === "running server" ? "copied by the running dashboard" : "copied from the stopped database";
  console.log(`backup written to ${result.file} (${megabytes(result.bytes)}, mode 0600)`);
  console.log(`  database: ${from}, ${result.manifest.migrations} migrations applied`);
  console.log(
    result.entries.includes("secrets.json")
      ? "  secrets: DATA_DIR/secrets.json"
      : "  secrets: none in DATA_DIR (they come from the environment)",
  );
  if (result.secretVariablesSet.length)
    console.log(`  not in the archive, set in the environment: ${result.secretVariablesSet.join(", ")}: keep their values with it`);
  console.log(
    result.entries.includes("audit-head.json")
      ? `  audit head kept outside the database: ${result.headFile}`
      : `  audit head kept outside the database: ${result.headFile ? `none written yet at ${result.headFile}` : "off (AUDIT_HEAD_FILE=off)"}`,
  );
  console.log(
    "This archive holds the keys: the audit trail's key and the data key that opens every case note. Whoever has it " +
      "reads the data and can forge the trail. Keep it as you keep the keys: encrypted, access-limited, off this machine.",
  );
}

runCli(main, { usage: USAGE, lead: "db:backup", exitCode: (error) => (error instanceof BackupRefused ? 1 : 2) });

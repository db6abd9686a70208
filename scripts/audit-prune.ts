// `npm run audit:prune`: removes the audit events older than AUDIT_RETENTION_DAYS (default 1825, five
// years) and writes a signed checkpoint so `npm run audit:verify` still passes. `--dry-run` only counts.
// It refuses while the chain is broken (pruning could erase the evidence); `--allow-broken-chain`, after the
// break has been investigated, prunes anyway and records where the chain was broken.
//
// The database refuses any other DELETE of an audit event (migrations 0011_audit_append_only and 0015): the prune
// goes through after writing its signed retention checkpoint in the same transaction (lib/audit-trail/server/prune.ts),
// then copies the new head outside the database (AUDIT_HEAD_FILE). In PostgreSQL, run it with a maintenance role
// holding the DELETE privilege on audit_events and INSERT on audit_checkpoints (docs/operations.md: "Database roles").
// Embedded mode (PGlite in DATA_DIR) allows one process at a time: stop the dashboard first.
import { BrokenChainError, pruneAuditTrail } from "@/lib/audit-trail/server/prune";
import { config } from "@/lib/config";

import { runCli, withDatabase } from "./cli";

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== "--dry-run" && arg !== "--allow-broken-chain");
  if (unknown.length) {
    console.error(`usage: npm run audit:prune [-- --dry-run] [--allow-broken-chain]   (unknown: ${unknown.join(" ")})`);
    return 2;
  }
  const dryRun = args.includes("--dry-run");
  const allowBrokenChain = args.includes("--allow-broken-chain");
  const retentionDays = config().auditRetentionDays;
  return withDatabase(async ({ db }) => {
    const result = await pruneAuditTrail(db, { retentionDays, dryRun, allowBrokenChain });
    const older = `older than ${retentionDays} days (before ${result.cutoff.toISOString()})`;
    if (dryRun) {
      console.log(
        `dry run: ${result.removed.toLocaleString("en")} audit events ${older} would be removed${result.throughEventId ? `, up to event #${result.throughEventId}` : ""}.`,
      );
    } else if (result.removed === 0) {
      console.log(`removed 0 audit events: none is ${older}.`);
    } else {
      console.log(
        `removed ${result.removed.toLocaleString("en")} audit events ${older}, up to event #${result.throughEventId}; signed checkpoint #${result.checkpointId} written, and the prune recorded in the trail.`,
      );
    }
    return 0;
  });
}

runCli(main, {
  lead: "audit:prune failed, nothing was removed",
  exitCode: (error) => (error instanceof BrokenChainError ? 1 : 2),
});

// `npm run audit:verify`: walks the audit chain and names the first broken event, checking each event (and
// checkpoint) with the audit key its key id names. Exit 0 when the chain is intact, 1 when it is broken, 2 when it
// could not be checked (database unreachable, configuration invalid). A key id the ring (AUDIT_HASH_SECRET) lacks
// is named as such, with the first event made under it, never reported as tampering (exit 1 all the same: those
// events were not checked).
// It prints the head (newest event id and hash) and signs it as a head checkpoint; the newest signed head must
// still be there on later runs, and `-- --head <id>:<hash>` checks a head noted earlier. Ids are gapless: missing
// ids, or a newest event below the count of events appended, are named. The head copied outside the database
// (AUDIT_HEAD_FILE: after each prune, each run of this script and on the app's timer) is checked too, which is how a
// database rewound by a role that owns the tables (triggers dropped, events, checkpoints and count cut back) shows.
//
// It also lists intents without an outcome (an upstream action whose end was never recorded).
//
// Embedded mode (PGlite in DATA_DIR) allows one process at a time: stop the dashboard first.
import { auditHeadFilePath, checkpointAuditHead, externalHeadSigned, readExternalHead } from "@/lib/audit-trail/server/head-file";
import { listOpenIntents } from "@/lib/audit-trail/server/intents";
import { verifyAuditChain } from "@/lib/audit-trail/server/verify";

import { runCli, withDatabase } from "./cli";

function parseArgs(args: string[]): { expectHead?: { id: number; hash: string } } | string {
  if (args.length === 0) return {};
  const match = args.length === 2 && args[0] === "--head" ? /^#?(\d+):([0-9a-f]{64})$/.exec(args[1]!) : null;
  if (!match) return "usage: npm run audit:verify [-- --head <id>:<hash>]   (a head printed by an earlier run)";
  return { expectHead: { id: Number(match[1]), hash: match[2]! } };
}

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2));
  if (typeof parsed === "string") {
    console.error(parsed);
    return 2;
  }
  const file = auditHeadFilePath();
  const external = file ? readExternalHead(file) : null;
  if (external && !externalHeadSigned(external)) {
    console.error(`audit chain NOT VERIFIED: the head kept in ${file} is not signed with this audit key (a forged or foreign copy)`);
    return 1;
  }
  return withDatabase(async ({ db }) => {
    const started = Date.now();
    let lastReport = started;
    const result = await verifyAuditChain(db, {
      expectHead: parsed.expectHead,
      externalHead: external ? { id: external.throughEventId, hash: external.throughEventHash, chainId: external.chainId } : undefined,
      onProgress: (checked) => {
        if (Date.now() - lastReport > 5000) {
          lastReport = Date.now();
          process.stderr.write(`  … ${checked.toLocaleString("en")} events checked\n`);
        }
      },
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const from = result.checkpoint
      ? `from retention checkpoint #${result.checkpoint.id} (${result.checkpoint.removedCount.toLocaleString("en")} events up to #${result.checkpoint.throughEventId} pruned on ${result.checkpoint.createdAt})`
      : "from the start of the chain";
    if (result.ok) {
      const range = result.checked ? `, events #${result.firstEventId} to #${result.lastEventId}` : "";
      console.log(`audit chain intact: ${result.checked.toLocaleString("en")} events checked ${from}${range}, in ${seconds} s`);
      // Noted outside the database, the head lets a later run see whether newest events were cut off.
      if (parsed.expectHead)
        console.log(
          `the head noted earlier (event #${parsed.expectHead.id}) is still in the chain${result.checkpoint && parsed.expectHead.id <= result.checkpoint.throughEventId ? " (since pruned under the checkpoint)" : ""}`,
        );
      console.log(
        external
          ? `the head kept in ${file} (event #${external.throughEventId}) is accounted for`
          : file
            ? `no head kept in ${file} yet: this run writes it`
            : "no head is kept outside the database (AUDIT_HEAD_FILE=off): check the audit_head_checkpoint log lines",
      );
      const open = await listOpenIntents(db);
      if (open.length > 0) {
        console.log(`${open.length} intent(s) without an outcome: check at the provider whether each action happened`);
        for (const intent of open) {
          console.log(
            `  #${intent.id} ${intent.at.toISOString()} ${intent.action} by ${intent.actorEmail ?? "nobody"} on ${intent.target ?? "-"}`,
          );
        }
      }
      if (result.lastHash) {
        // A verified head is worth signing: a later run sees events cut off after it (head checkpoints).
        const anchor = await checkpointAuditHead(db, { verified: { id: result.lastEventId!, hash: result.lastHash } });
        console.log(`head: ${result.lastEventId}:${result.lastHash}`);
        if (anchor)
          console.log(`  signed as head checkpoint #${anchor.id} (event #${anchor.throughEventId}), copied to ${file ?? "the log"}`);
        console.log(
          `  (note it outside the database; "npm run audit:verify -- --head <it>" later shows whether newer events were cut off)`,
        );
      }
      return 0;
    }
    if (result.broken!.reason === "key_unknown") {
      // Not tampering: the ring lacks a key still needed (docs/operations.md, "Rotating the audit key").
      const where = result.broken!.eventId !== null ? `event #${result.broken!.eventId}` : `checkpoint #${result.broken!.checkpointId}`;
      console.error(
        `audit chain NOT VERIFIED: audit key "${result.broken!.keyId}" is not in AUDIT_HASH_SECRET (first made under it: ${where})`,
      );
      console.error(`  ${result.broken!.message}`);
      return 1;
    }
    console.error(
      `audit chain BROKEN at ${result.broken!.eventId !== null ? `event #${result.broken!.eventId}` : `checkpoint #${result.broken!.checkpointId}`}`,
    );
    console.error(`  ${result.broken!.message}`);
    console.error(
      ["head_missing", "tail_missing"].includes(result.broken!.reason)
        ? `  The ${result.checked.toLocaleString("en")} events present chain correctly ${from}; what is missing is at the end.`
        : `  ${result.checked.toLocaleString("en")} events before it verified ${from}.`,
    );
    return 1;
  });
}

runCli(main, { lead: "audit:verify could not run" });

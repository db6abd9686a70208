import "server-only";

import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";

import { auditChainHead, auditCheckpoints } from "@/lib/audit-trail/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import type { KeyRing } from "@/lib/keys/ring";
import { log } from "@/lib/log";

import { anchorAuditHead, checkpointSignatureValid, type HeadCheckpoint } from "./checkpoint";
import { headStatus } from "./verify";

/*
 * The trail's head kept where the application's database role cannot change it. Inside the database, a role that
 * owns the tables can drop the append-only triggers, cut the newest events, delete the head checkpoints and lower
 * the count of events: the database then looks like a shorter trail that verifies. So each signed head checkpoint
 * (after a prune, after `audit:verify`, and every AUDIT_HEAD_CHECKPOINT_MINUTES) is also
 *
 * - written as one structured log line (`audit_head_checkpoint`), for a log store the database role cannot reach;
 * - written to a file (AUDIT_HEAD_FILE; by default beside the data folder, or under the OS state folder with
 *   PostgreSQL), replaced atomically, and only forward: a head is written only when the head the file holds is
 *   still in the chain (same hash) or pruned under a retention checkpoint, so a rewound database never overwrites
 *   the evidence against it.
 *
 * `npm run audit:verify` reads the file and checks its head is still in the database (verify.ts, `expectHead`).
 * The file names the trail (`audit_chain_head.chain_id`): a copy from another database is reported, not compared.
 */

export interface ExternalHead {
  chainId: string;
  checkpointId: number;
  createdAt: string;
  throughEventId: number;
  throughEventHash: string;
  throughEventAt: string;
  keyId: string;
  signature: string;
}

/**
 * Where the copy goes: AUDIT_HEAD_FILE, else beside the data folder (embedded) or under the OS state folder. From the
 * configuration, or from the settings given (a restore reads them without loading the configuration: lib/backup).
 */
export function auditHeadFilePath(
  { file, url, dataDir }: { file: string | undefined; url: string | undefined; dataDir: string } = {
    file: config().auditHead.file,
    ...config().database,
  },
): string | null {
  if (file === "off") return null;
  if (file) return path.resolve(file);
  if (!url) return `${path.resolve(dataDir)}-audit-head.json`;
  // One file per database (host, port and name; never the credentials).
  const parsed = new URL(url);
  const name = createHash("sha256").update(`${parsed.hostname}:${parsed.port}${parsed.pathname}`).digest("hex").slice(0, 16);
  const state = process.env.XDG_STATE_HOME || path.join(os.homedir(), ".local", "state");
  return path.join(state, "kyc-dashboard", `audit-head-${name}.json`);
}

/** The head the file holds, or null when there is none yet; throws when the file is not a head. */
export function readExternalHead(file: string): ExternalHead | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const head = JSON.parse(text) as Partial<ExternalHead>;
  const valid =
    typeof head.chainId === "string" &&
    Number.isSafeInteger(head.checkpointId) &&
    Number.isSafeInteger(head.throughEventId) &&
    typeof head.throughEventHash === "string" &&
    typeof head.createdAt === "string" &&
    typeof head.throughEventAt === "string" &&
    typeof head.keyId === "string" &&
    typeof head.signature === "string";
  if (!valid) throw new Error(`${file} does not hold an audit head checkpoint`);
  return head as ExternalHead;
}

/** Whether the external head's signature is one the audit key made (a head checkpoint's). */
export function externalHeadSigned(head: ExternalHead, ring: KeyRing = config().secrets.auditHash): boolean {
  const createdAt = new Date(head.createdAt);
  return checkpointSignatureValid(
    {
      kind: "head",
      createdAt,
      throughEventId: head.throughEventId,
      throughEventHash: head.throughEventHash,
      throughEventAt: new Date(head.throughEventAt),
      removedCount: 0,
      cutoff: createdAt,
      retentionDays: 0,
      keyId: head.keyId,
      signature: head.signature,
    },
    ring,
  );
}

/** This database's trail id (created by migration 0015, or by the first append). */
export async function auditChainId(db: Database): Promise<string | null> {
  const [row] = await db.select({ chainId: auditChainHead.chainId }).from(auditChainHead);
  return row?.chainId ?? null;
}

/**
 * Copies a committed head checkpoint outside the database: the log line always, the file when it moves forward and
 * the head it held is still accounted for. Never throws (a failure is logged): the caller's work is done.
 */
export async function publishAuditHead(db: Database, checkpoint: HeadCheckpoint): Promise<void> {
  try {
    const [row] = await db.select().from(auditCheckpoints).where(eq(auditCheckpoints.id, checkpoint.id));
    const chainId = await auditChainId(db);
    if (!row || !chainId) return;
    const head: ExternalHead = {
      chainId,
      checkpointId: row.id,
      createdAt: row.createdAt.toISOString(),
      throughEventId: row.throughEventId,
      throughEventHash: row.throughEventHash,
      throughEventAt: row.throughEventAt.toISOString(),
      keyId: row.keyId,
      signature: row.signature,
    };
    const { signature, ...fields } = head;
    log.info("audit_head_checkpoint", { ...fields, headSignature: signature });
    const file = auditHeadFilePath();
    if (!file) return;
    const held = readExternalHead(file);
    if (held && held.chainId !== chainId) {
      log.error("audit_head_file_foreign", { file, heldChainId: held.chainId, chainId });
      return;
    }
    if (held && held.throughEventId >= head.throughEventId) return;
    if (held && (await headStatus(db, { id: held.throughEventId, hash: held.throughEventHash })) !== "accounted") {
      // Kept as it is: it is the evidence that the database was rewound (npm run audit:verify names it).
      log.error("audit_head_file_not_in_chain", { file, heldEventId: held.throughEventId, newEventId: head.throughEventId });
      return;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomUUID()}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify(head, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch (error) {
    log.error("audit_head_publish_failed", { error });
  }
}

/** Signs the current head (or the one just verified) and copies it outside the database. */
export async function checkpointAuditHead(
  db: Database,
  options: Parameters<typeof anchorAuditHead>[1] = {},
): Promise<HeadCheckpoint | null> {
  const anchored = await anchorAuditHead(db, options);
  if (anchored) await publishAuditHead(db, anchored);
  return anchored;
}

// `npm run keys:rotate`: the key rings' rotation (docs/operations.md, "Rotating a key").
//   keys:rotate <secret>                 a new key, put first: it makes everything new; the others still open
//   keys:rotate --retire <secret> <id>   removes an older key: never the current one, nor one that stored data
//                                        still needs (audit events, sealed notes, factor secrets…) unless --force
//   keys:rotate --status                 each ring's key ids and what still depends on each older key
// <secret>: nextauth | media-seal | audit-hash | data-encryption | webhook-signing.
//
// A ring held in DATA_DIR/secrets.json (the embedded default, its variable unset) is rewritten there; restart
// the dashboard to use it. A ring held in a variable (service mode) is never written anywhere: the script
// prints the variable's new value to set on every instance, the new key in full and the kept keys as
// placeholders, so no secret but the new key is ever printed. --status and --retire read the database (plain
// counts); in embedded mode PGlite allows one process at a time: stop the dashboard first.
// Exit codes: 0 done, 1 refused (the current key, an unknown one, one still needed), 2 could not run.
import fs from "node:fs";
import path from "node:path";

import { sql } from "drizzle-orm";

import { factorSecretKeyId, openFactorSecretWithKey } from "@/lib/auth/server/factor-secret";
import { ABSOLUTE_TIMEOUT_MS } from "@/lib/auth/server/sessions";
import { config, generatedSecretsFile, type Config } from "@/lib/config";
import { queryRows, type Database } from "@/lib/db/client";
import { formatKeyRing, keyById, newKeyId, newSecret, withNewKey, type KeyRing } from "@/lib/keys/ring";
import { MAX_MEDIA_TOKEN_SECONDS } from "@/lib/verifications/server/media-token";

import { runCli, UsageError, withDatabase } from "./cli";

interface RingSpec {
  name: string;
  variable: string;
  /** Its field in DATA_DIR/secrets.json. */
  field: string;
  ring(cfg: Config): KeyRing | undefined;
}

const RINGS: RingSpec[] = [
  { name: "nextauth", variable: "NEXTAUTH_SECRET", field: "nextAuth", ring: (cfg) => cfg.secrets.nextAuth },
  { name: "media-seal", variable: "MEDIA_SEAL_SECRET", field: "mediaSeal", ring: (cfg) => cfg.secrets.mediaSeal },
  { name: "audit-hash", variable: "AUDIT_HASH_SECRET", field: "auditHash", ring: (cfg) => cfg.secrets.auditHash },
  { name: "data-encryption", variable: "DATA_ENCRYPTION_SECRET", field: "dataEncryption", ring: (cfg) => cfg.secrets.dataEncryption },
  { name: "webhook-signing", variable: "WEBHOOK_SIGNING_SECRET", field: "webhookSigning", ring: (cfg) => cfg.webhooks.signing },
];

const USAGE = [
  "usage: npm run keys:rotate -- <secret>",
  "       npm run keys:rotate -- --retire <secret> <key id> [--force]",
  "       npm run keys:rotate -- --status",
  `<secret>: ${RINGS.map((spec) => spec.name).join(" | ")}`,
].join("\n");

function specOf(name: string | undefined): RingSpec {
  const spec = RINGS.find((candidate) => candidate.name === name);
  if (!spec) throw new UsageError(`unknown secret "${name ?? ""}"`);
  return spec;
}

/** Where the ring lives: the generated file (embedded mode, variable unset) or the variable. */
function fromFile(cfg: Config, spec: RingSpec): boolean {
  return cfg.mode === "embedded" && !process.env[spec.variable];
}

function readFile(cfg: Config): { file: string; values: Record<string, string> } {
  const file = generatedSecretsFile(cfg.database.dataDir);
  return { file, values: JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string> };
}

function writeFile(file: string, values: Record<string, string>): void {
  // Written beside and renamed over, so a crash never leaves half a file (and every secret lost).
  const temporary = path.join(path.dirname(file), `.secrets-${process.pid}.json`);
  fs.writeFileSync(temporary, JSON.stringify(values, null, 2), { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** The ring's variable with only `shown` in full; every other key as a placeholder naming its id. */
function variableTemplate(spec: RingSpec, ring: KeyRing, shown?: string): string {
  const entries = ring.keys.map((key) => (key.id === shown ? `${key.id}:${key.secret}` : `${key.id}:<the secret of key ${key.id}>`));
  return `${spec.variable}="${entries.join(",")}"`;
}

function rotate(cfg: Config, spec: RingSpec): void {
  const ring = spec.ring(cfg);
  if (!ring) {
    console.log(`${spec.variable} is unset: set it to one key (no rotation needed), e.g. ${spec.variable}="${newKeyId()}:<a secret>".`);
    return;
  }
  let id = newKeyId();
  for (let n = 2; keyById(ring, id); n += 1) id = `${newKeyId()}-${n}`;
  const rotated = withNewKey(ring, { id, secret: newSecret() });
  if (fromFile(cfg, spec)) {
    const { file, values } = readFile(cfg);
    writeFile(file, { ...values, [spec.field]: formatKeyRing(rotated) });
    console.log(`${spec.name}: key ${id} put first in ${file}; keys now ${rotated.keys.map((key) => key.id).join(", ")}.`);
    console.log("Restart the dashboard (npm run dev / npm start): new ones are made under the new key, the older keys still open theirs.");
    return;
  }
  console.log(`${spec.name}: a new key ${id}. Set on every instance, then restart them:`);
  console.log(`  ${variableTemplate(spec, rotated, id)}`);
  console.log(`(the placeholders stand for the keys ${spec.variable} holds now, kept as they are.)`);
  if (spec.name === "webhook-signing") {
    console.log("Once every instance has it, give the service the new secret: deliveries signed with either are accepted meanwhile.");
  }
}

async function retire(cfg: Config, spec: RingSpec, id: string, force: boolean): Promise<number> {
  const ring = spec.ring(cfg);
  if (!ring || !keyById(ring, id)) {
    console.error(`${spec.name} holds no key ${id} (keys: ${ring?.keys.map((key) => key.id).join(", ") || "none"}).`);
    return 1;
  }
  if (ring.current.id === id) {
    console.error(`${spec.name}: key ${id} is the current key and cannot be retired; rotate first (npm run keys:rotate -- ${spec.name}).`);
    return 1;
  }
  const held = describe((await countDependents(cfg))[spec.name]!.get(id));
  if (held && !force) {
    console.error(`${spec.name}: key ${id} still opens or verifies ${held}; kept. (--force retires it anyway: those become unreadable.)`);
    return 1;
  }
  const left: KeyRing = { current: ring.current, keys: ring.keys.filter((key) => key.id !== id) };
  if (fromFile(cfg, spec)) {
    const { file, values } = readFile(cfg);
    writeFile(file, { ...values, [spec.field]: formatKeyRing(left) });
    console.log(
      `${spec.name}: key ${id} removed from ${file}; keys now ${left.keys.map((key) => key.id).join(", ")}. Restart the dashboard.`,
    );
    return 0;
  }
  console.log(`${spec.name}: without key ${id}, set on every instance, then restart them:`);
  console.log(`  ${variableTemplate(spec, left)}`);
  return 0;
}

// ---- status ---------------------------------------------------------------------------------------------

type Counts = Map<string, Map<string, number>>;

function add(counts: Counts, keyId: string, what: string, n: number): void {
  if (n <= 0) return;
  const entry = counts.get(keyId) ?? new Map<string, number>();
  entry.set(what, (entry.get(what) ?? 0) + n);
  counts.set(keyId, entry);
}

/** Rows per key id of one query returning `(key_id, n)`; a null key id counts under `unknown`. */
async function countInto(
  db: Database,
  counts: Counts,
  what: string,
  query: ReturnType<typeof sql>,
  unknown = "(no key id recorded)",
): Promise<void> {
  for (const row of await queryRows<{ key_id: string | null; n: number | string }>(db, query))
    add(counts, row.key_id ?? unknown, what, Number(row.n));
}

// Sealed text (lib/keys/ring.ts sealText): `v1.<key id>.<iv>.<ciphertext>.<tag>`.
const sealedKeyId = (column: string) => sql.raw(`split_part(${column}, '.', 2)`);
const isSealed = (column: string) => sql.raw(`${column} like 'v1.%' and array_length(string_to_array(${column}, '.'), 1) = 5`);

async function dependents(db: Database, cfg: Config): Promise<Record<string, Counts>> {
  const out: Record<string, Counts> = Object.fromEntries(RINGS.map((spec) => [spec.name, new Map()]));

  const audit = out["audit-hash"]!;
  await countInto(db, audit, "audit events", sql`select key_id, count(*) as n from audit_events group by key_id`);
  await countInto(db, audit, "audit checkpoints", sql`select key_id, count(*) as n from audit_checkpoints group by key_id`);
  await countInto(
    db,
    audit,
    "CPF hashes in the search index",
    sql`select cpf_key_id as key_id, count(*) as n from verification_index where cpf_hash is not null group by cpf_key_id`,
  );

  const data = out["data-encryption"]!;
  await countInto(
    db,
    data,
    "case notes and comments",
    sql`select ${sealedKeyId("text")} as key_id, count(*) as n from case_entries where ${isSealed("text")} group by 1`,
  );
  await countInto(
    db,
    data,
    "case outcome comments",
    sql`select ${sealedKeyId("outcome_comment")} as key_id, count(*) as n from cases where ${isSealed("outcome_comment")} group by 1`,
  );
  const [clear] = await queryRows<{ n: number | string }>(
    db,
    sql`select (select count(*) from case_entries where text is not null and not (${isSealed("text")}))
      + (select count(*) from cases where outcome_comment is not null and not (${isSealed("outcome_comment")})) as n`,
  );
  add(data, "(in clear)", "case texts not yet sealed", Number(clear?.n ?? 0));

  const auth = out.nextauth!;
  const secrets = await queryRows<{ totp_secret: string }>(
    db,
    sql`select totp_secret from staff_factors where kind = 'totp' and totp_secret is not null`,
  );
  for (const { totp_secret: sealed } of secrets) {
    let keyId = factorSecretKeyId(sealed);
    if (!keyId) {
      // Sealed before key ids were stored: the key that opens it says which.
      try {
        keyId = openFactorSecretWithKey(sealed, cfg.secrets.nextAuth).keyId;
      } catch {
        keyId = "(no key of the ring)";
      }
    }
    add(auth, keyId, "authenticator-app secrets", 1);
  }
  await countInto(
    db,
    auth,
    "unused recovery codes",
    sql`select case when position(':' in code_hash) > 0 then split_part(code_hash, ':', 1) end as key_id, count(*) as n
      from staff_recovery_codes where used_at is null group by 1`,
    "(made before key ids were stored: the key current then)",
  );
  return out;
}

/** What nothing in the database records: how long an artefact of an older key may still be presented. */
function transient(spec: RingSpec, cfg: Config): string | undefined {
  switch (spec.name) {
    case "nextauth":
      return `session cookies: re-issued under the current key as members use the dashboard, all within ${ABSOLUTE_TIMEOUT_MS / 3_600_000} h (the session's absolute limit)`;
    case "media-seal":
      return `image links last ${MAX_MEDIA_TOKEN_SECONDS / 60} min, integration-key reveal cookies ${Math.round(cfg.integrationKeyRevealSeconds / 60)} min`;
    case "webhook-signing":
      return "deliveries: until the service signs with the new key (and redelivers nothing signed with the old one)";
    case "audit-hash":
      return "sign-in throttle counters and SMS cooldowns use the current key only (a rotation restarts their windows)";
    default:
      return undefined;
  }
}

function countDependents(cfg: Config): Promise<Record<string, Counts>> {
  return withDatabase(({ db }) => dependents(db, cfg));
}

const describe = (what: Map<string, number> | undefined) => [...(what ?? [])].map(([label, n]) => `${n} ${label}`).join(", ");

async function status(cfg: Config): Promise<void> {
  const counts = await countDependents(cfg);
  for (const spec of RINGS) {
    const ring = spec.ring(cfg);
    const where = fromFile(cfg, spec) ? generatedSecretsFile(cfg.database.dataDir) : spec.variable;
    console.log(`${spec.name} (${where})`);
    if (!ring) {
      console.log("  unset");
      continue;
    }
    const byKey = counts[spec.name]!;
    for (const key of ring.keys) {
      const held = describe(byKey.get(key.id));
      const role = key.id === ring.current.id ? "current" : held ? "still needed" : "nothing stored depends on it";
      console.log(`  ${key.id}  ${role}${held ? `: ${held}` : ""}`);
    }
    // Stored under a key no longer in the ring, or under no key id at all.
    for (const [keyId, what] of byKey) {
      if (!keyById(ring, keyId)) console.log(`  ${keyId}  not in the ring: ${describe(what)}`);
    }
    const note = transient(spec, cfg);
    if (note) console.log(`  also: ${note}`);
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const cfg = config();
  if (args[0] === "--status" && args.length === 1) {
    await status(cfg);
    return 0;
  }
  if (args[0] === "--retire" && (args.length === 3 || (args.length === 4 && args[3] === "--force"))) {
    return retire(cfg, specOf(args[1]), args[2]!, args[3] === "--force");
  }
  if (args.length === 1 && !args[0]!.startsWith("--")) {
    rotate(cfg, specOf(args[0]));
    return 0;
  }
  throw new UsageError(args.length ? `unexpected arguments: ${args.join(" ")}` : "no secret named");
}

runCli(main, { lead: "keys:rotate could not run", usage: USAGE });

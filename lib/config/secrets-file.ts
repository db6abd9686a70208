import "server-only";

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { z } from "zod";

import { MIN_SECRET_LENGTH } from "@/lib/config/fields";
import { parseKeyRing, type KeyRing } from "@/lib/keys/ring";

// Each value is a ring's variable value (one plain secret, or `id:secret,…` once `npm run keys:rotate` added a key).
const generatedSecretsSchema = z.object({
  nextAuth: z.string(),
  mediaSeal: z.string(),
  auditHash: z.string(),
  dataEncryption: z.string(),
  webhookSigning: z.string(),
});
type GeneratedSecretValues = z.infer<typeof generatedSecretsSchema>;
type GeneratedSecrets = Record<keyof GeneratedSecretValues, KeyRing>;

/** Where embedded mode keeps its generated rings (`npm run keys:rotate` rewrites it). */
export function generatedSecretsFile(dataDir: string): string {
  return path.resolve(dataDir, "secrets.json");
}

function parseGenerated(values: GeneratedSecretValues): GeneratedSecrets {
  const parse = (value: string) => parseKeyRing(value, MIN_SECRET_LENGTH);
  return {
    nextAuth: parse(values.nextAuth),
    mediaSeal: parse(values.mediaSeal),
    auditHash: parse(values.auditHash),
    dataEncryption: parse(values.dataEncryption),
    webhookSigning: parse(values.webhookSigning),
  };
}

const makeSecret = () => randomBytes(32).toString("base64url");

/**
 * Embedded mode only: secrets made once and kept in the git-ignored data folder, so restarts keep sessions.
 * A file written before a secret existed (the webhook signing secret came later) keeps its other values
 * and gains the missing one: regenerating them would end every session and break the audit chain's key.
 */
export function generatedSecrets(dataDir: string): GeneratedSecrets {
  const file = generatedSecretsFile(dataDir);
  if (fs.existsSync(file)) {
    const raw = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    const stored = generatedSecretsSchema.safeParse(raw);
    if (stored.success) return parseGenerated(stored.data);
    const completed = generatedSecretsSchema.safeParse({ webhookSigning: makeSecret(), dataEncryption: makeSecret(), ...raw });
    if (completed.success) {
      fs.writeFileSync(file, JSON.stringify(completed.data, null, 2), { mode: 0o600 });
      return parseGenerated(completed.data);
    }
  }
  const made: GeneratedSecretValues = {
    nextAuth: makeSecret(),
    mediaSeal: makeSecret(),
    auditHash: makeSecret(),
    dataEncryption: makeSecret(),
    webhookSigning: makeSecret(),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // `wx` so two processes starting together keep the first file written instead of racing.
  try {
    fs.writeFileSync(file, JSON.stringify(made, null, 2), { mode: 0o600, flag: "wx" });
    return parseGenerated(made);
  } catch {
    return parseGenerated(generatedSecretsSchema.parse(JSON.parse(fs.readFileSync(file, "utf8"))));
  }
}

import "server-only";

import { z } from "zod";

import { sharedSchema } from "@/lib/config/schema";
import type { Env } from "@/lib/config/types";

/** The variables that hold a secret ring; unset in the embedded default, each is generated into DATA_DIR/secrets.json. */
const SECRET_VARIABLES = [
  "NEXTAUTH_SECRET",
  "MEDIA_SEAL_SECRET",
  "AUDIT_HASH_SECRET",
  "DATA_ENCRYPTION_SECRET",
  "WEBHOOK_SIGNING_SECRET",
] as const;

/** Where the configuration keeps the dashboard's state on disk (`npm run db:backup`, `db:restore`). */
export interface DataLocations {
  /** DATABASE_URL: PostgreSQL holds the data, and DATA_DIR no database. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** AUDIT_HEAD_FILE as set: a path, "off", or undefined for its default (lib/audit-trail/server/head-file.ts). */
  auditHeadFile: string | undefined;
  /** The secret variables set, whose values override DATA_DIR/secrets.json's (and are not in it). */
  secretVariablesSet: string[];
}

const locationSchema = z.object({
  DATA_DIR: sharedSchema.shape.DATA_DIR,
  DATABASE_URL: z.string().optional(),
  AUDIT_HEAD_FILE: sharedSchema.shape.AUDIT_HEAD_FILE,
});

/**
 * The locations alone, read with the same rules as the whole configuration (an empty variable is unset) but
 * without loading it: in the embedded default, loading it writes DATA_DIR/secrets.json when it is missing, and a
 * restore must find an empty DATA_DIR empty, and put the archive's secrets there, not new ones.
 */
export function dataLocations(rawEnv: Env = process.env): DataLocations {
  const env: Env = Object.fromEntries(Object.entries(rawEnv).filter(([, value]) => value !== undefined && value !== ""));
  const values = locationSchema.parse(env);
  return {
    databaseUrl: values.DATABASE_URL,
    dataDir: values.DATA_DIR,
    auditHeadFile: values.AUDIT_HEAD_FILE || undefined,
    secretVariablesSet: SECRET_VARIABLES.filter((name) => env[name]),
  };
}

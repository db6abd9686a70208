-- Connections (issue 33): the service's keys the dashboard speaks with, one row per key and its partners account,
-- kept in the database so an admin adds, tests, rotates and retires them without a restart and every instance
-- sees the same. Secrets are sealed under the data key ring (DATA_ENCRYPTION_SECRET): a dump shows envelopes, a
-- hint of four characters, and nothing usable. The environment variables of earlier releases seed the row
-- `primary` at start-up when it is missing (lib/connections/server/seed.ts), so an existing deployment keeps
-- working untouched. Additive: a previous release running beside this one in a rolling deploy ignores the table.
CREATE TABLE connections (
  id text PRIMARY KEY,
  name text NOT NULL,
  environment text NOT NULL,
  integration text,
  core_key_sealed text NOT NULL,
  core_key_hint text NOT NULL,
  partners_sealed text,
  capabilities jsonb,
  tested_at timestamp with time zone,
  seeded_from text,
  position integer NOT NULL DEFAULT 0,
  version integer NOT NULL DEFAULT 1,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  retired_at timestamp with time zone,
  CONSTRAINT connections_id_format CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
  CONSTRAINT connections_environment CHECK (environment IN ('sandbox', 'production'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX connections_name_live ON connections (lower(name)) WHERE retired_at IS NULL;

-- The overview's status mirror (lib/overview/server/mirror.ts): for each connection, the verifications the service's
-- list shows for the days the overview has read (its "most recent verification of each person"), by id, status,
-- flow, journey and dates; no document, name or score. A day is read whole (every page) once it has ended, and kept:
-- the overview counts from here, checked against the service's own totals on each view, and a difference is logged
-- and the period read again.
CREATE TABLE verification_mirror (
  connection_id text NOT NULL,
  public_id text NOT NULL,
  status text NOT NULL,
  flow text,
  journey text,
  created_at timestamp with time zone NOT NULL,
  decided_at timestamp with time zone,
  seen_at timestamp with time zone NOT NULL,
  PRIMARY KEY (connection_id, public_id)
);
--> statement-breakpoint
CREATE INDEX verification_mirror_created_idx ON verification_mirror (connection_id, created_at);
--> statement-breakpoint
CREATE TABLE verification_mirror_days (
  connection_id text NOT NULL,
  day date NOT NULL,
  read_at timestamp with time zone NOT NULL,
  PRIMARY KEY (connection_id, day)
);

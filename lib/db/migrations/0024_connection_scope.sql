-- Every record kept about a verification belongs to one connection (issue 33, item 3): the connection whose key
-- reads the verification. Additive: the rows kept before connections existed were all read with the start-up
-- variables' key, the connection `primary` they seed, so each column defaults to it and nothing is lost or moved.
-- Cases: the queue, a case and the overview read those of the page's connection only.
ALTER TABLE cases ADD COLUMN connection_id text NOT NULL DEFAULT 'primary';
--> statement-breakpoint
CREATE INDEX cases_connection_idx ON cases (connection_id, status, opened_at);
--> statement-breakpoint
-- Events: routed to their connection when received (by the verification's owner, else the key that reads it); the
-- sync's incremental pass of a connection applies that connection's events only.
ALTER TABLE verification_events ADD COLUMN connection_id text NOT NULL DEFAULT 'primary';
--> statement-breakpoint
CREATE INDEX verification_events_connection_idx ON verification_events (connection_id, id);
--> statement-breakpoint
-- The search index: a search answers the page's connection's entries only.
ALTER TABLE verification_index ADD COLUMN connection_id text NOT NULL DEFAULT 'primary';

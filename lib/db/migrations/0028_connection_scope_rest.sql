-- The rest of what the dashboard keeps about a verification belongs to one connection (issue 33, item 3). Additive:
-- every row kept before belongs to `primary`, the connection the start-up variables seed, whose key made or read it.
-- Notifications: those about a case belong to the case's connection (told only to members who may use it, linked
-- under it); a member's own account notices (a second factor added or removed) to none.
ALTER TABLE notifications ADD COLUMN connection_id text;
--> statement-breakpoint
UPDATE notifications SET connection_id = 'primary' WHERE kind NOT IN ('factor_added', 'factor_removed');
--> statement-breakpoint
-- Saved views: a member's named filters of one connection's list or queue.
ALTER TABLE saved_views ADD COLUMN connection_id text NOT NULL DEFAULT 'primary';
--> statement-breakpoint
DROP INDEX saved_views_name_key;
--> statement-breakpoint
CREATE UNIQUE INDEX saved_views_name_key ON saved_views (user_id, connection_id, scope, lower(name));
--> statement-breakpoint
-- Document crops: drawn on one connection's verification, read under that connection only.
ALTER TABLE document_crops ADD COLUMN connection_id text NOT NULL DEFAULT 'primary';
--> statement-breakpoint
-- The upstream call counters: each connection's key has its own quota, so each connection its own counts.
ALTER TABLE upstream_calls ADD COLUMN connection_id text NOT NULL DEFAULT 'primary';
--> statement-breakpoint
ALTER TABLE upstream_calls DROP CONSTRAINT upstream_calls_day_source_kind_pk;
--> statement-breakpoint
ALTER TABLE upstream_calls ADD CONSTRAINT upstream_calls_day_connection_id_source_kind_pk PRIMARY KEY (day, connection_id, source, kind);

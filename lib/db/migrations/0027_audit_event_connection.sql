-- The connection an event was recorded under (issue 33, item 3): the one the request or job worked under, null for
-- what concerns no connection (a sign-in, a staff change made outside one) and for every event before this column.
-- Chained: the event's hash covers it when it is set (lib/audit-trail/server/record.ts), so the trail stays one chain
-- and the events before it verify as they did.
ALTER TABLE audit_events ADD COLUMN connection_id text;
--> statement-breakpoint
CREATE INDEX audit_events_connection_idx ON audit_events (connection_id, at);

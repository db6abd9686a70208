-- What the live stream carries about a connection's records (a case, a verification event) names that connection; a
-- stream sends only its own connection's and those about no connection (a member's notification). Null on events
-- published before (they live an hour at most).
ALTER TABLE live_events ADD COLUMN connection_id text;

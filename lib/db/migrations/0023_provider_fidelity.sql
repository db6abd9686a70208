-- What the provider's public material says a delivery and a verification carry (issue 35). Additive throughout, so
-- a previous release running beside this one in a rolling deploy is unaffected (it never writes the new state).
--
-- Deliveries: a signed body the receiver cannot read is kept (state 'unparseable', only its size and digest, never
-- its bytes) and answered 2xx instead of 400; a delivery without the delivery id header is keyed by the event's own
-- identity or the body's digest (key_source); the envelope's account id is kept for routing to a connection.
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_state_check;
--> statement-breakpoint
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_state_check CHECK (state IN ('pending', 'processed', 'ignored', 'failed', 'unparseable'));
--> statement-breakpoint
ALTER TABLE webhook_deliveries ADD COLUMN key_source text NOT NULL DEFAULT 'header';
--> statement-breakpoint
ALTER TABLE webhook_deliveries ADD COLUMN body_bytes integer;
--> statement-breakpoint
ALTER TABLE webhook_deliveries ADD COLUMN body_sha256 text;
--> statement-breakpoint
ALTER TABLE webhook_deliveries ADD COLUMN tenant_public_id text;
--> statement-breakpoint
-- Events: the flat shape's scores (shown on the verification's event history), the envelope's decision time and account.
ALTER TABLE verification_events ADD COLUMN identity_score double precision;
--> statement-breakpoint
ALTER TABLE verification_events ADD COLUMN fraud_score double precision;
--> statement-breakpoint
ALTER TABLE verification_events ADD COLUMN decided_at timestamp with time zone;
--> statement-breakpoint
ALTER TABLE verification_events ADD COLUMN tenant_public_id text;
--> statement-breakpoint
-- Cases: why a closed case closed ('decided' by the provider, or the person's flow 'expired' without an outcome; null
-- for cases closed before this column, all of them decided), and the provider's review sub-state (open, assigned,
-- decided) as last read, shown beside the case's own stage.
ALTER TABLE cases ADD COLUMN closed_reason text;
--> statement-breakpoint
ALTER TABLE cases ADD CONSTRAINT cases_closed_reason_check CHECK (closed_reason IS NULL OR closed_reason IN ('decided', 'expired'));
--> statement-breakpoint
ALTER TABLE cases ADD COLUMN upstream_review_state text;
